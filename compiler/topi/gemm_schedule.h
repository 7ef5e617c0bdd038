// The CPU schedule template of the GEMM family: every choice is a GemmScheduleConfig field, so
// the tuner can make each a knob. See the comment on GemmScheduleConfig for the loop structure.
#pragma once

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "compiler/topi/cpu_info.h"
#include "compiler/topi/gemm.h"
#include "compiler/topi/scheduled_op.h"

namespace tunefarm::topi {

// Which loop of the cache block is outer.
enum class GemmBlockOrder : uint8_t { kMN, kNM };

// Where the accumulator lives. kRegisterTile: a reg_m x reg_n local tile computed at each
// register tile over all of K (the tile stays in registers; tile_k is unused). kCacheBlock: a
// tile_m x tile_n local block computed at each cache block, with the k loop split by tile_k
// outside the register tiles (B's k-slice stays in cache; the tile is reloaded per k block).
enum class GemmAccumulator : uint8_t { kRegisterTile, kCacheBlock };

// The loops it gives C[(b,) m, n] (kRegisterTile):
//   parallel (b, block rows, block columns) fused   -- tile_m x tile_n cache blocks, `order`
//     for register rows, for register columns     -- reg_m x reg_n tiles
//       acc = 0; for k: unrolled rows x unrolled vectors x vectorized lanes: acc += A * B
//       copy acc out to C
// With pack_weight_at_block only (b, outer block) is fused; the weight's column block is packed
// inside it. kCacheBlock keeps a whole block's accumulator with k blocks outside its tiles.
struct GemmScheduleConfig {
  int64_t vector_lanes = 8;   // elements per vector register
  int64_t reg_m = 4;          // register tile rows (unrolled)
  int64_t reg_n_vectors = 2;  // register tile columns, in vectors (unrolled)
  int64_t tile_m = 64;        // cache block rows (a multiple of reg_m)
  int64_t tile_n = 64;        // cache block columns (a multiple of reg_n)
  int64_t tile_k = 0;         // k block for kCacheBlock; 0: all of K
  int64_t unroll_k = 1;       // unroll factor of the innermost k loop
  GemmBlockOrder order = GemmBlockOrder::kMN;
  GemmAccumulator accumulator = GemmAccumulator::kRegisterTile;
  bool pack_weight = true;            // repack the weight as [N/reg_n][K][reg_n] in the kernel
  bool pack_weight_at_block = false;  // pack each column block inside the block loops (once
                                      // per column block with kNM) instead of all up front
  bool pack_input = false;            // repack the input as [M/reg_m][K][reg_m] in the kernel
  bool parallel = true;               // run the fused (batch, block) loop on the thread pool

  int64_t reg_n() const { return vector_lanes * reg_n_vectors; }
  // The layout the compute must be declared with: blocks of the register tile when packing.
  GemmLayout Layout() const {
    return GemmLayout{pack_weight ? reg_n() : 0, pack_input ? reg_m : 0};
  }
  // The earlier name of Layout(), kept while callers move over.
  GemmLayout PackBlock() const { return Layout(); }
  std::string ToString() const;
};

// The op-named spellings of the one GEMM template.
using MatmulScheduleConfig = GemmScheduleConfig;
using DenseScheduleConfig = GemmScheduleConfig;
using BatchMatmulScheduleConfig = GemmScheduleConfig;

// The default for C[m, n] = A[m, k] B with B packed once, at build time, in blocks of
// `packed_block` columns ([N/packed_block][K][packed_block], PackedMatmulCompute): the register
// tile is one block wide, its rows what the registers hold (at most 6), the cache blocks whole
// tiles spread evenly over the cores.
GemmScheduleConfig DefaultPackedGemmConfig(int64_t m, int64_t n, int64_t k, const CpuInfo& cpu,
                                           int64_t packed_block);

// Rows per cache block: about 16 register tiles of reg_m rows, the blocks as even as the tiles
// allow (a last block of a few rows leaves a core idle while the others finish), and where
// (row, column) blocks are few, as many row blocks as make them a multiple of `cores`.
int64_t BalancedGemmTileM(int64_t m, int64_t reg_m, int64_t column_blocks, int64_t cores);

// A good starting point for C[batch, m, n] += A[m, k] * B(k, n) on `cpu`: a register tile that
// fits its vector registers, cache blocks sized to its L2, the weight packed per column block
// (or, for a matrix-vector product with B[K][N], B streamed row by row unpacked).
GemmScheduleConfig DefaultGemmConfig(int64_t batch, int64_t m, int64_t n, int64_t k,
                                     const CpuInfo& cpu, WeightLayout layout = WeightLayout::kKN);
inline MatmulScheduleConfig DefaultMatmulConfig(int64_t m, int64_t n, int64_t k,
                                                const CpuInfo& cpu) {
  return DefaultGemmConfig(1, m, n, k, cpu, WeightLayout::kKN);
}
inline DenseScheduleConfig DefaultDenseConfig(int64_t m, int64_t n, int64_t k, const CpuInfo& cpu) {
  return DefaultGemmConfig(1, m, n, k, cpu, WeightLayout::kNK);
}
inline BatchMatmulScheduleConfig DefaultBatchMatmulConfig(int64_t batch, int64_t m, int64_t n,
                                                          int64_t k, const CpuInfo& cpu,
                                                          bool transpose_b = false) {
  return DefaultGemmConfig(batch, m, n, k, cpu,
                           transpose_b ? WeightLayout::kNK : WeightLayout::kKN);
}

// Applies `config` to tensors from MatmulCompute, DenseCompute, BatchMatmulCompute or
// PackedMatmulCompute (whose weight, packed at build time, is an input). With `epilogue` (the
// elementwise and broadcast stages a fused kernel computes from C: a bias, GELU, a residual
// add), the epilogue's stage is tiled in C's place and applied to each register tile before its
// one store (epilogue.h). Errors: a non-positive or inconsistent config field (named), tensors
// declared with a layout other than config.Layout() (FailedPrecondition), an epilogue of another
// shape. Tile sizes larger than the shape are clamped to it.
absl::StatusOr<ScheduledOp> ScheduleGemm(const GemmScheduleConfig& config, const GemmTensors& t,
                                         const te::Tensor& epilogue = te::Tensor());
inline absl::StatusOr<ScheduledOp> ScheduleMatmul(const MatmulScheduleConfig& config,
                                                  const GemmTensors& t) {
  return ScheduleGemm(config, t);
}
inline absl::StatusOr<ScheduledOp> ScheduleDense(const DenseScheduleConfig& config,
                                                 const GemmTensors& t) {
  return ScheduleGemm(config, t);
}
inline absl::StatusOr<ScheduledOp> ScheduleBatchMatmul(const BatchMatmulScheduleConfig& config,
                                                       const GemmTensors& t) {
  return ScheduleGemm(config, t);
}

}  // namespace tunefarm::topi
