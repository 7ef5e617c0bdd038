// Layer normalization (ONNX LayerNormalization, a transformer's LayerNorm): each slice over the
// axes from `axis` to the last normalized by its mean and biased variance, then scaled and
// shifted per element of those axes.
#pragma once

#include "absl/status/statusor.h"
#include "compiler/te/tensor.h"

namespace tunefarm::topi {

struct LayerNormTensors {
  // Of x's shape up to `axis`: the sum and mean, the sum of (x - mean)^2 (two passes, so no
  // cancellation) and 1 / sqrt(variance + epsilon).
  te::Tensor sum, mean, squares, rstd;
  te::Tensor out;
};

// `scale` and `bias` (bias may be undefined) broadcast to x's shape from `axis` on. Errors: a
// symbolic shape, an axis out of range, a parameter that does not broadcast.
absl::StatusOr<LayerNormTensors> LayerNormCompute(const te::Tensor& x, const te::Tensor& scale,
                                                  const te::Tensor& bias, int axis, double epsilon);

}  // namespace tunefarm::topi
