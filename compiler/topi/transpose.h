// Transpose: the axes of a tensor permuted, out[i_0..i_n] = x[j] with j[perm[d]] = i_d. An
// injective stage that a reader inlines (gemm's transposed operand) or a schedule runs alone.
#pragma once

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler/te/tensor.h"

namespace tunefarm::topi {

// Output axis d is input axis perm[d]. Errors: perm not a permutation of x's axes.
absl::StatusOr<te::Tensor> TransposeCompute(const te::Tensor& x, const std::vector<int64_t>& perm);

}  // namespace tunefarm::topi
