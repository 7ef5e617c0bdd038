// The default CPU schedule of any computation, for ops that have no template of their own and
// for evaluating an op once (constant folding): injective intermediates inlined into their
// readers, reductions and outputs computed at the root, each with its outer axes fused into one
// parallel loop and its last output axis in vectors (a reduction's vector lanes innermost, below
// its reduction loops). Correct for any shape, fast enough to fold a model's weights.
#pragma once

#include <vector>

#include "absl/status/statusor.h"
#include "compiler/te/tensor.h"
#include "compiler/topi/cpu_info.h"
#include "compiler/topi/scheduled_op.h"

namespace tunefarm::topi {

// `outputs` are computed from `inputs` (placeholders); the args are the inputs, then the
// outputs. Errors: the schedule's own (a primitive that cannot apply).
absl::StatusOr<ScheduledOp> ScheduleDefault(const std::vector<te::Tensor>& inputs,
                                            const std::vector<te::Tensor>& outputs,
                                            const CpuInfo& cpu);

}  // namespace tunefarm::topi
