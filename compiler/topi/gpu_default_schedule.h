// The default GPU schedule of any computation, for the fused groups of a model that no GPU
// template covers (injective chains, pooling, softmax, gemm): one thread per output element.
// Correct for any shape; the templates are what make the heavy ops fast.
#pragma once

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler/te/tensor.h"
#include "compiler/topi/scheduled_op.h"

namespace tunefarm::topi {

// Injective intermediates are inlined into their readers. Each output is one kernel: its axes
// fused and spread over blocks of `threads` threads (the tail guarded). A reduction that is not
// an output (an average's sum, softmax's max and sum) is computed in registers by each thread
// that reads it, over the elements that thread needs. The args are the inputs, then the outputs.
// Errors: Unimplemented for a reduction read by more than one output (each output is its own
// kernel, and kernels share no buffers), the schedule's own otherwise.
absl::StatusOr<ScheduledOp> ScheduleGpuDefault(const std::vector<te::Tensor>& inputs,
                                               const std::vector<te::Tensor>& outputs,
                                               int64_t threads = 256);

}  // namespace tunefarm::topi
