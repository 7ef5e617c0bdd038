#include "tuner/search/task_tuning_setup.h"

#include "tuner/templates/template_registry.h"

namespace tunefarm::tuner {

absl::StatusOr<TaskTuningSetup> SetUpTaskTuning(const Task& task, const TuningRequest& request,
                                                const std::string& device_key, RecordStore& store) {
  if (absl::Status s = CheckStrategyName(request.tuner); !s.ok()) return s;
  if (absl::Status s = store.PutWorkload(task.key(), task.flops()); !s.ok()) return s;
  // Only records timed the way this run times are comparable: they alone warm the model.
  const CacheFlush flush = runtime::measure::TimedFlush(request.measure);
  StrategyOptions so;
  so.name = request.tuner;
  so.seed = request.seed;
  so.transfer_from = request.transfer ? &store : nullptr;
  so.transfer_cache_flush = flush;
  so.device_key = device_key;
  so.make_task = [target = task.target()](const Workload& w) { return CreateTask(w, target); };
  absl::StatusOr<std::unique_ptr<StrategyBundle>> strategy = MakeSearchStrategy(task, so);
  if (!strategy.ok()) return strategy.status();
  TaskTuningSetup setup;
  setup.strategy = *std::move(strategy);
  setup.tune.trials = request.trials;
  setup.tune.batch_size = request.batch_size;
  setup.tune.early_stopping = request.early_stopping;
  setup.tune.cache_flush = flush;
  return setup;
}

}  // namespace tunefarm::tuner
