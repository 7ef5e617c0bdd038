// Times a kernel for `tunefarm run --time` with the runtime's time evaluator, the same way the
// tuner measures candidates (warm-up, then repeats of enough calls to last min_repeat_ms).
#pragma once

#include <vector>

#include "absl/status/statusor.h"
#include "compiler/te/tensor.h"
#include "driver/bindings.h"
#include "driver/kernel_runner.h"
#include "runtime/ndarray.h"

namespace tunefarm::driver {

struct KernelTiming {
  double median_seconds = 0;
  int repeats = 0;
  int threads = 0;  // the thread pool's width during the measurement (0: a GPU kernel)
};

// Runs `runner` on `arrays` (outputs are overwritten) and returns the median of 5 repeats of at
// least 50 ms each.
absl::StatusOr<KernelTiming> TimeKernel(const KernelRunner& runner,
                                        std::vector<runtime::NDArray>& arrays,
                                        const Bindings& bindings);

// The parallel width of compiled kernels (the runtime thread pool's). `threads` must be positive.
absl::Status SetKernelThreads(int threads);

}  // namespace tunefarm::driver
