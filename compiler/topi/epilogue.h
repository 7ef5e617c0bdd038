// A fused kernel's epilogue: the elementwise and broadcast stages a graph computes after an anchor
// (a conv's bias, a batch norm's scale and shift, a residual add, relu/clip) are inlined into the
// stage that writes the kernel's output, so that a template which tiles that stage, with the
// anchor's accumulator computed at its tile, applies them in registers before the one store.
#pragma once

#include <vector>

#include "absl/status/status.h"
#include "compiler/schedule/schedule.h"
#include "compiler/te/tensor.h"

namespace tunefarm::topi {

// Checks that `out` has `anchor`'s rank and no larger extents (an epilogue maps each output
// element to the anchor's element at the same index; an anchor computed wider than needed, as a
// conv rounded up to whole vectors, is cut back), then inlines every compute stage of `s` without
// reduction axes other than `out` and those in `keep` (a padded input the template schedules
// itself). FailedPrecondition naming `op` and both shapes otherwise.
absl::Status InlineEpilogue(schedule::Schedule& s, const te::Tensor& anchor, const te::Tensor& out,
                            const std::vector<te::Tensor>& keep, const char* op);

}  // namespace tunefarm::topi
