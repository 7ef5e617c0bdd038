// Activation functions the elementwise.h set lacks (exp, hard_sigmoid, hard_swish, identity), as
// single-stage computes that an elementwise schedule inlines or an injective one runs alone.
#pragma once

#include "absl/status/statusor.h"
#include "compiler/te/tensor.h"

namespace tunefarm::topi {

// e^x.
absl::StatusOr<te::Tensor> ExpCompute(const te::Tensor& x);
// max(0, min(1, alpha * x + beta)).
absl::StatusOr<te::Tensor> HardSigmoidCompute(const te::Tensor& x, double alpha, double beta);
// x * hard_sigmoid(x) with alpha = 1/6 and beta = 0.5 (MobileNet-v3's h-swish).
absl::StatusOr<te::Tensor> HardSwishCompute(const te::Tensor& x);
// A copy of x: the compute of an op that only forwards its input, so it still has a stage.
absl::StatusOr<te::Tensor> IdentityCompute(const te::Tensor& x);

}  // namespace tunefarm::topi
