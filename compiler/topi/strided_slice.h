// Strided slice: out[..., i, ...] = x[..., begin + i * step, ...] on each axis, steps of either
// sign. The caller resolves its framework's clamping rules (ONNX Slice, numpy) into a begin,
// step and count per axis; split is one slice per part.
#pragma once

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler/te/tensor.h"

namespace tunefarm::topi {

// One entry per axis of x. Errors: a step of 0, a negative count, an element outside x.
absl::StatusOr<te::Tensor> StridedSliceCompute(const te::Tensor& x,
                                               const std::vector<int64_t>& begin,
                                               const std::vector<int64_t>& step,
                                               const std::vector<int64_t>& count);

}  // namespace tunefarm::topi
