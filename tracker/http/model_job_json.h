// The JSON documents of model jobs on the dashboard (/api/model_jobs, docs/dashboard.md): the
// model's estimated and measured latency, each task's share of it, its best against its default
// config, and how the estimate fell with trials and time.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "tracker/model_job_manager.h"
#include "tuner/record_store.h"

namespace tunefarm::tracker::http {

// One model job: state, budget, estimated ("tuned kernels") and measured end-to-end seconds,
// and its tasks with their share of the estimate.
nlohmann::json ModelJobJson(const farm_api::ModelJobStatus& job, int64_t now_ms);
// {"model_jobs": [...]}: newest first.
nlohmann::json ModelJobsJson(const ModelJobManager& model_jobs, int64_t now_ms);
// The leaderboard's models: for each (model name, target, device key) the model job whose module
// measured fastest end to end, [{"model", "target", "device_key", "measured_seconds",
// "untuned_seconds", "speedup", "measured_by", "model_job_id", "model_jobs"}] (model_jobs: how
// many measured ones there are), by model then fastest first. Jobs never measured are left out.
nlohmann::json ModelLeaderboardJson(const std::vector<farm_api::ModelJobStatus>& jobs);
// ModelLeaderboardJson of the newest model jobs (as many as /api/model_jobs lists).
nlohmann::json ModelLeaderboardJson(const ModelJobManager& model_jobs);
// {"model_job": ModelJobJson (each task with "default" as the leaderboard has it), "curve":
// [{"trial", "elapsed_seconds", "estimated_seconds"}] each time the estimate fell}; NotFound.
absl::StatusOr<nlohmann::json> ModelJobDetailJson(const ModelJobManager& model_jobs,
                                                  tuner::RecordStore& store, const std::string& id,
                                                  int64_t now_ms);

}  // namespace tunefarm::tracker::http
