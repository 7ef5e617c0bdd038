// The JSON documents of the dashboard's API (/api/..., docs/dashboard.md). The HTML pages render
// these same documents, so a page never shows what the API would not.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "absl/status/statusor.h"
#include "tracker/dispatcher.h"
#include "tracker/job_manager.h"
#include "tuner/record_store.h"

namespace tunefarm::tracker::http {

// {"workers": [...]}: every connected worker (gone ones are absent), by id.
nlohmann::json WorkersJson(const Dispatcher& dispatcher, int64_t now_ms);
// One job's status with progress, rate (trials per second since it was created) and ETA.
nlohmann::json JobJson(const farm_api::JobStatus& job, int64_t now_ms);
// {"jobs": [...]}: every job, newest first.
nlohmann::json JobsJson(const JobManager& jobs, int64_t now_ms);
// {"job": JobJson, "flops", "trials": [...], "error_breakdown": {...}}; NotFound for an unknown id.
absl::StatusOr<nlohmann::json> JobDetailJson(const JobManager& jobs, tuner::RecordStore& store,
                                             const std::string& id, int64_t now_ms);
// One record with all its repeats and its lowered IR; NotFound for an unknown id.
absl::StatusOr<nlohmann::json> RecordJson(tuner::RecordStore& store, int64_t id);

// A stored config as a JSON object; one that does not parse, or nests deeper than any config
// may, is shown as its text.
nlohmann::json ConfigObject(const std::string& config_json);
// GFLOPS of `flops` done in `seconds`; null when either is unknown.
nlohmann::json Gflops(std::optional<double> flops, std::optional<double> seconds);

}  // namespace tunefarm::tracker::http
