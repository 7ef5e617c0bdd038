// Reshape: the same elements in row-major order under another shape (flatten, squeeze and
// unsqueeze are reshapes too). The output index is flattened and split again over the input's
// extents; axes the two shapes share as a prefix or suffix map one to one, so the common cases
// (adding or removing axes of extent 1, flattening the tail) need no division.
#pragma once

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler/te/tensor.h"

namespace tunefarm::topi {

// Errors: a symbolic input shape, a new shape with a negative extent or another element count.
absl::StatusOr<te::Tensor> ReshapeCompute(const te::Tensor& x, const std::vector<int64_t>& shape);

}  // namespace tunefarm::topi
