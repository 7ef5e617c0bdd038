// General matrix multiply in BLAS/ONNX form, Y = alpha * A' B' + beta * C: optional transposes of
// either operand, scaling, and a bias C broadcast to [M, N]. The product is gemm.h's matmul
// (B as [K][N]) or dense (B transposed, [N][K]), so its schedules apply; a transposed A is an
// injective stage in front of it.
#pragma once

#include "absl/status/statusor.h"
#include "compiler/te/tensor.h"
#include "compiler/topi/gemm.h"

namespace tunefarm::topi {

struct GeneralGemmParams {
  bool trans_a = false, trans_b = false;
  double alpha = 1.0, beta = 1.0;
  // > 0: b is packed as [N/b_block][K][b_block] (PackedMatmulCompute), trans_b is false.
  int64_t b_block = 0;
};

struct GeneralGemmTensors {
  te::Tensor a_t;       // A transposed to [M][K] when trans_a, else undefined
  GemmTensors product;  // A' B' (product.c)
  te::Tensor out;       // the product itself when alpha = 1 and there is no C
};

// a and b are 2-D; c (may be undefined) is of rank <= 2 and broadcasts to [M, N] (numpy rules,
// one direction). Errors name gemm and the shapes.
absl::StatusOr<GeneralGemmTensors> GeneralGemmCompute(const te::Tensor& a, const te::Tensor& b,
                                                      const te::Tensor& c,
                                                      const GeneralGemmParams& params);

}  // namespace tunefarm::topi
