// numpy's matmul: a stack of matrix products whose leading (batch) axes broadcast, a 1-D operand
// promoted to a matrix and its axis removed from the result. Plain 2-D products are gemm.h's
// matmul, so their schedules apply.
#pragma once

#include "absl/status/statusor.h"
#include "compiler/te/tensor.h"

namespace tunefarm::topi {

// out[batch..., m, n] = sum_k a[batch_a..., m, k] * b[batch_b..., k, n], batch axes broadcast
// (numpy rules). Errors: a rank-0 operand, inner extents that differ, batch axes that do not
// broadcast, dtypes that differ.
absl::StatusOr<te::Tensor> BroadcastMatmulCompute(const te::Tensor& a, const te::Tensor& b);

}  // namespace tunefarm::topi
