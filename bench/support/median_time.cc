#include "bench/support/median_time.h"

#include <vector>

#include "runtime/time_evaluator.h"

namespace tunefarm::bench {

absl::StatusOr<double> MedianSeconds(const std::function<absl::Status()>& fn) {
  runtime::TimeEvaluatorOptions options;
  options.repeat = 5;
  options.min_repeat_ms = 100;
  options.warmup = 2;
  absl::StatusOr<std::vector<double>> samples = runtime::TimeFunction(fn, options);
  if (!samples.ok()) return samples.status();
  return runtime::Summarize(*samples).median;
}

}  // namespace tunefarm::bench
