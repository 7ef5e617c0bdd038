// Computes that read their input at computed positions: gather (numpy's take along one axis),
// expand (numpy broadcast_to, ONNX Expand) and tile.
#pragma once

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler/te/tensor.h"

namespace tunefarm::topi {

// out[pre..., j..., post...] = data[pre..., indices[j...], post...] with `axis` in [0, rank).
// A negative index counts from the end; one out of range after that is clamped into it, so a
// kernel never reads outside `data` (callers refuse constant indices out of range). Errors: a
// symbolic shape, indices that are not int32/int64.
absl::StatusOr<te::Tensor> GatherCompute(const te::Tensor& data, const te::Tensor& indices,
                                         int axis);

// out[i] = data[i with i[axis] = indices[i]] (ONNX GatherElements, torch.gather): indices have
// data's rank and no larger extents except along `axis`; negative ones count from the end and
// the rest are clamped as GatherCompute's.
absl::StatusOr<te::Tensor> GatherElementsCompute(const te::Tensor& data, const te::Tensor& indices,
                                                 int axis);

// x broadcast to `shape` (numpy's rules, shapes aligned at the right). Errors: shapes that do not
// broadcast.
absl::StatusOr<te::Tensor> ExpandCompute(const te::Tensor& x, const std::vector<int64_t>& shape);

// x repeated repeats[d] times along each axis d (one entry per axis).
absl::StatusOr<te::Tensor> TileCompute(const te::Tensor& x, const std::vector<int64_t>& repeats);

}  // namespace tunefarm::topi
