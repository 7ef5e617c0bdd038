// One task's tuning set up as a TuningRequest asks: its workload stored, its search strategy
// (warmed from the store's related records when the request transfers) and the tuning loop's
// options. The tune command, a model's local tuning and the tracker's jobs all start here.
#pragma once

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "tuner/record_store.h"
#include "tuner/search/strategy_factory.h"
#include "tuner/task.h"
#include "tuner/tuning_loop.h"
#include "tuner/tuning_request.h"

namespace tunefarm::tuner {

struct TaskTuningSetup {
  std::unique_ptr<StrategyBundle> strategy;
  // The request's trials, batch size, early stopping and timing; the caller adds what only it
  // knows (its stop flag, progress callback, job id, clock).
  TuneOptions tune;
};

// `device_key` is the one results are filed under (the runner's, which may differ from an empty
// request key). InvalidArgument for an unknown tuner; the store's errors as it gives them.
absl::StatusOr<TaskTuningSetup> SetUpTaskTuning(const Task& task, const TuningRequest& request,
                                                const std::string& device_key, RecordStore& store);

}  // namespace tunefarm::tuner
