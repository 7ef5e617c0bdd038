// The JSON documents of model jobs on the dashboard (/api/model_jobs, docs/dashboard.md): the
// model's estimated and measured latency, each task's share of it, its best against its default
// config, and how the estimate fell with trials and time.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "absl/status/statusor.h"
#include "tracker/model_job_manager.h"
#include "tuner/record_store.h"

namespace tunefarm::tracker::http {

// One model job: state, budget, estimated ("tuned kernels") and measured end-to-end seconds,
// and its tasks with their share of the estimate.
nlohmann::json ModelJobJson(const ModelJobStatus& job, int64_t now_ms);
// {"model_jobs": [...]}: newest first.
nlohmann::json ModelJobsJson(const ModelJobManager& model_jobs, int64_t now_ms);
// {"model_job": ModelJobJson (each task with "default" as the leaderboard has it), "curve":
// [{"trial", "elapsed_seconds", "estimated_seconds"}] each time the estimate fell}; NotFound.
absl::StatusOr<nlohmann::json> ModelJobDetailJson(const ModelJobManager& model_jobs,
                                                  tuner::RecordStore& store, const std::string& id,
                                                  int64_t now_ms);

}  // namespace tunefarm::tracker::http
