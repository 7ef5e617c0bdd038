#include "driver/kernel_timer.h"

#include <string>

#include "runtime/core/thread_pool.h"
#include "runtime/time_evaluator.h"

namespace tunefarm::driver {

absl::StatusOr<KernelTiming> TimeKernel(const KernelRunner& runner,
                                        std::vector<runtime::NDArray>& arrays,
                                        const Bindings& bindings) {
  std::vector<runtime::NDArray*> pointers;
  for (runtime::NDArray& a : arrays) pointers.push_back(&a);
  runtime::TimeEvaluatorOptions options;
  options.repeat = 5;
  options.min_repeat_ms = 50;
  absl::StatusOr<std::vector<double>> samples = runner.Time(pointers, bindings, options);
  if (!samples.ok()) return samples.status();
  KernelTiming timing;
  timing.median_seconds = runtime::Summarize(*samples).median;
  timing.repeats = static_cast<int>(samples->size());
  timing.threads = runner.UsesThreadPool() ? runtime::NumThreads() : 0;
  return timing;
}

absl::Status SetKernelThreads(int threads) {
  std::string error;
  if (!runtime::SetNumThreads(threads, &error)) return absl::InvalidArgumentError(error);
  return absl::OkStatus();
}

}  // namespace tunefarm::driver
