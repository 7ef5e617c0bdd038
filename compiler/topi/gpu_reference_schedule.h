// The naive GPU schedule every GPU template checks its candidates against: one thread per output
// element, no tiling and no shared memory, so it is simple enough to trust and still runs on the
// GPU (a CPU reference of a batch-256 conv would take minutes per tuning job).
#pragma once

#include <vector>

#include "absl/status/statusor.h"
#include "compiler/te/tensor.h"
#include "compiler/topi/scheduled_op.h"

namespace tunefarm::topi {

// Schedules `out` with its axes fused and spread over blocks of `threads` threads on blockIdx.x
// and threadIdx.x (the tail guarded); the reductions stay serial loops in each thread. Every
// stage in `inlined` (an injective stage such as padding) is computed inline, since a module has
// no buffer between kernels. `args` are the kernel's arguments.
absl::StatusOr<ScheduledOp> ScheduleGpuReference(const te::Tensor& out,
                                                 const std::vector<te::Tensor>& inlined,
                                                 std::vector<te::Tensor> args,
                                                 int64_t threads = 256);

}  // namespace tunefarm::topi
