// The workload leaderboard (/api/workloads, /workloads): each workload's best ok record per
// (target, device key), next to the untuned default config's record when one was measured.
#pragma once

#include <nlohmann/json.hpp>

#include "absl/status/statusor.h"
#include "tuner/record_store.h"

namespace tunefarm::tracker::http {

// {"workloads": [{"key", "flops", "best": [{"target", "device_key", "record_id",
// "median_seconds", "gflops", "config", "measured_by", "default": {...} | null, "speedup"}]}]}.
absl::StatusOr<nlohmann::json> LeaderboardJson(tuner::RecordStore& store);
// The default config's best record of the workload on (target, device key), timed with
// `cache_flush` (tuner::Record): {"record_id", "median_seconds", "gflops"}, or null when it was
// never measured so there.
nlohmann::json DefaultConfigRecord(tuner::RecordStore& store, const std::string& workload_key,
                                   const std::string& target, const std::string& device_key,
                                   tuner::CacheFlush cache_flush);

}  // namespace tunefarm::tracker::http
