// MakeSearchStrategy: a strategy by name ("xgb", "random", "grid", "ga") for a task, with what
// it needs kept alive beside it (feature extractor, the other tasks transfer learning reads).
// The tune command and the tracker's jobs both build their strategies here.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "tuner/record_store.h"
#include "tuner/search/feature_extractor.h"
#include "tuner/search/model_based_search.h"
#include "tuner/search_strategy.h"
#include "tuner/task.h"

namespace tunefarm::tuner {

struct StrategyOptions {
  std::string name = "xgb";
  uint64_t seed = 0;
  // Transfer learning (xgb only): records of the task's template in this store warm the model:
  // other workloads on the same target, and with `transfer_other_devices` every workload (the
  // task's own included) measured on other device keys or targets; null disables it. `make_task`
  // rebuilds those workloads' tasks (their spaces parse the configs, their loop nests give the
  // features). Each (workload, target, device) is ranked as its own group.
  RecordStore* transfer_from = nullptr;
  std::function<absl::StatusOr<std::unique_ptr<Task>>(const Workload&)> make_task;
  std::string device_key;  // the task's own: its records there are its history, not transfer
  bool transfer_other_devices = true;
  int transfer_limit = 400;                             // newest records read
  CacheFlush transfer_cache_flush = CacheFlush::kNone;  // read records timed this way (Record)
  bool knob_features_only = false;
  // xgb's search settings (its seed is `seed` above); the defaults are what the tools use.
  ModelBasedOptions model_based = {};
};

struct StrategyBundle {
  std::vector<std::unique_ptr<Task>> transfer_tasks;
  std::vector<std::unique_ptr<FeatureExtractor>> extractors;  // [0]: the task's own
  std::unique_ptr<SearchStrategy> strategy;
  std::string
      transfer_summary;  // e.g. "transfer: 180 rows from 2 workloads or devices"; empty when none
};

// OK when `name` is a search strategy (xgb, random, grid, ga); else InvalidArgument listing them,
// so that a command refuses a mistyped --tuner before it creates anything.
absl::Status CheckStrategyName(std::string_view name);

// Errors: an unknown name (InvalidArgument listing the known ones). A transfer source that cannot
// be used (template changed, different feature length) is skipped with a log line, not an error.
absl::StatusOr<std::unique_ptr<StrategyBundle>> MakeSearchStrategy(const Task& task,
                                                                   const StrategyOptions& options);

}  // namespace tunefarm::tuner
