// The int8 dense layer on CPUs: C[m, n] = sum_k int32(A[m, k]) * int32(W[n, k]) for uint8 A and
// int8 W (the asymmetric-activation, symmetric-weight scheme of PyTorch's fbgemm and ONNX QDQ),
// with the weight packed [ceil(N/L), K/4, L, 4] so that its inner block is the dot intrinsic's
// (compiler/intrin/dot_int8.h): vpdpbusd with VNNI, sdot/udot on AArch64, widened elsewhere.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler/te/tensor.h"
#include "compiler/topi/cpu_info.h"
#include "compiler/topi/scheduled_op.h"

namespace tunefarm::topi {

// The schedule's choices (each a tuning knob): `lanes` int32 sums per dot instruction (the
// packing's L), a reg_m x (reg_n_vectors * lanes) accumulator tile held in registers over all of
// K, the k loop unrolled by unroll_k groups of four, and the tiles spread over the thread pool.
struct DenseInt8Config {
  int64_t lanes = 16;
  int64_t reg_m = 4;
  int64_t reg_n_vectors = 2;
  int64_t unroll_k = 1;
  bool parallel = true;

  int64_t reg_n() const { return lanes * reg_n_vectors; }
  std::string ToString() const;
};

// Lanes from the CPU's vector width (16 for AVX-512, 8 for AVX2, 4 for NEON), a tile of at most
// 4 x 2 vectors that fits its registers, shrunk for a small M or N.
DenseInt8Config DefaultDenseInt8Config(int64_t m, int64_t n, int64_t k, const CpuInfo& cpu);

// The tensors of one int8 dense layer. `blocked` [M, ceil(N/L), L] is the product by column
// block (the lane a separate axis, as the intrinsic wants); `c` [M, N] int32 copies it out.
struct DenseInt8Tensors {
  te::Tensor a;         // uint8 [M, K]
  te::Tensor packed_w;  // int8 [ceil(N/L), K/4, L, 4], zero past N
  te::Tensor blocked;
  te::Tensor c;
  int64_t lanes = 0;
};

// K must be a multiple of 4 (the errors name the shapes and dtypes).
absl::StatusOr<DenseInt8Tensors> DenseInt8Compute(const te::Tensor& a, const te::Tensor& packed_w,
                                                  int64_t n);

// The weight W [N, K] (row-major int8) packed for `lanes`: what packed_w holds.
std::vector<int8_t> PackDenseInt8Weight(const int8_t* w, int64_t n, int64_t k, int64_t lanes);

// Register tiles in a parallel loop over (row block, column block); the tile's accumulator is
// computed over all of K with the dot intrinsic at its lanes. With an `epilogue` (elementwise
// stages after c: dequantizing scales, bias, relu), it is applied to the tile before its one
// store. Arguments: a, packed_w, then c or the epilogue's output.
absl::StatusOr<ScheduledOp> ScheduleDenseInt8(const DenseInt8Config& config,
                                              const DenseInt8Tensors& t,
                                              const te::Tensor& epilogue = te::Tensor());

}  // namespace tunefarm::topi
