// Concatenation of tensors along one axis: each output element reads the one input whose range
// of that axis holds it (a chain of lazy if_then_else, so no other input is read).
#pragma once

#include <vector>

#include "absl/status/statusor.h"
#include "compiler/te/tensor.h"

namespace tunefarm::topi {

// Errors: no inputs, symbolic shapes, an axis out of range, inputs of another rank or dtype or
// with other extents outside `axis`.
absl::StatusOr<te::Tensor> ConcatCompute(const std::vector<te::Tensor>& inputs, int axis);

}  // namespace tunefarm::topi
