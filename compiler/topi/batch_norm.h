// Batch normalization in inference form, as a per-channel scale and shift: the two small
// channel stages are what constant folding evaluates once, and x * scale + shift is what fuses
// into a convolution's epilogue.
#pragma once

#include "absl/status/statusor.h"
#include "compiler/te/tensor.h"

namespace tunefarm::topi {

struct BatchNormTensors {
  te::Tensor scale;  // [C]: gamma / sqrt(var + epsilon)
  te::Tensor shift;  // [C]: beta - mean * scale
  te::Tensor out;    // x * scale[c] + shift[c], c the index along `axis`
};

// gamma, beta, mean and var are [C], C the extent of x's `axis`; all of x's dtype. Errors name
// batch_norm and the shapes.
absl::StatusOr<BatchNormTensors> BatchNormInferenceCompute(
    const te::Tensor& x, const te::Tensor& gamma, const te::Tensor& beta, const te::Tensor& mean,
    const te::Tensor& var, double epsilon, int axis = 1);

}  // namespace tunefarm::topi
