// The GEMM family's computes (matmul, dense, batch_matmul), with optional in-kernel packing of
// the weight as [N/bn][K][bn] so a schedule's inner loop reads one contiguous vector.
#pragma once

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "compiler/te/tensor.h"

namespace tunefarm::topi {

// Where the reduction index sits in the weight: B[K][N] (matmul) or W[N][K] (dense).
enum class WeightLayout : uint8_t { kKN, kNK };

// Packs a GEMM weight (with an optional leading batch axis) into [(batch,) ceil(N/block), K,
// block]: out[nb, k, j] is the weight at column nb*block + j, and 0 past N, so that a tail
// block reads zeros instead of out-of-bounds memory.
absl::StatusOr<te::Tensor> PackWeightCompute(const te::Tensor& weight, WeightLayout layout,
                                             int64_t block, const std::string& op);

// How the operands are laid out in the kernel: 0 reads them as given; a block > 0 packs the
// weight as [N/b_block][K][b_block] (whole vectors of columns per k), or the input as
// [M/a_block][K][a_block] (a register tile's rows contiguous per k). Take it from the schedule
// config (GemmScheduleConfig::Layout()), since the schedule's tiles must match it.
struct GemmLayout {
  int64_t b_block = 0;
  int64_t a_block = 0;
};

// The tensors of one GEMM-family computation. With a weight block, the product is computed in
// column blocks, blocked[(b,) m, n/bn, n%bn] (so that a vector of bn columns is one axis, never
// a division), and c copies it out.
struct GemmTensors {
  te::Tensor a;
  te::Tensor b;
  te::Tensor packed_a;  // defined when layout.a_block > 0
  te::Tensor packed_b;  // defined when layout.b_block > 0
  te::Tensor blocked;   // defined when layout.b_block > 0
  te::Tensor c;
  GemmLayout layout;
  bool batched = false;
};

// C[m, n] = sum_k A[m, k] * B[k, n]. Errors name the shapes.
absl::StatusOr<GemmTensors> MatmulCompute(const te::Tensor& a, const te::Tensor& b,
                                          const GemmLayout& layout = {});

// Y[m, n] = sum_k X[m, k] * W[n, k], as a fully connected layer (bias and activation are
// separate elementwise ops).
absl::StatusOr<GemmTensors> DenseCompute(const te::Tensor& x, const te::Tensor& w,
                                         const GemmLayout& layout = {});

// C[m, n] = sum_k A[m, k] * B[k, n] with B given packed as PackWeightCompute writes it,
// [N/bn][K][bn] (N a multiple of bn): a constant weight packed once at build time, so that each
// k reads bn contiguous columns under any schedule (a batch-1 dense layer streams its weight
// instead of striding across its rows). packed_b in the result is the input itself.
absl::StatusOr<GemmTensors> PackedMatmulCompute(const te::Tensor& a, const te::Tensor& packed_b);

// C[b, m, n] = sum_k A[b, m, k] * B[b, k, n], or B[b, n, k] with transpose_b.
absl::StatusOr<GemmTensors> BatchMatmulCompute(const te::Tensor& a, const te::Tensor& b,
                                               bool transpose_b = false,
                                               const GemmLayout& layout = {});

}  // namespace tunefarm::topi
