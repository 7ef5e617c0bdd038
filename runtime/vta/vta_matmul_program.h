// A complete int8 matmul for the simulated accelerator, C = clamp((A x B^T) >> shift, -128, 127)
// with A M x K, B N x K and C M x N, tiled over the on-chip buffers. With two buffers the loads
// of the next K chunk overlap the GEMM of this one and the store of a tile overlaps the next
// tile's compute, synchronised by dependence tokens; with one they take turns.
#pragma once

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "runtime/vta/vta_config.h"
#include "runtime/vta/vta_program.h"

namespace tunefarm::runtime::vta {

// Byte offsets in DRAM, each a multiple of its entry size: A in input entries (PackMatmulInput),
// B in weight tiles (PackMatmulWeight), C in output entries (UnpackMatmulOutput), and the
// program's micro-op table (VtaProgram::EncodeUopTable), which the caller writes there.
struct VtaMatmulLayout {
  uint64_t a_offset = 0;
  uint64_t b_offset = 0;
  uint64_t c_offset = 0;
  uint64_t uop_offset = 0;
};

// A tile is tile_m input entries (batch rows each) by tile_n weight tiles (block_out columns
// each), over tile_k blocks of K (block_in each); each must divide its dimension's blocks. Zero
// lets the builder pick the tiling its cycle estimate likes best.
struct VtaMatmulOptions {
  int shift = 0;    // arithmetic right shift of the int32 sums, 0..31
  int buffers = 2;  // 1 or 2: copies of each on-chip tile
  int64_t tile_m = 0;
  int64_t tile_n = 0;
  int64_t tile_k = 0;
};

struct VtaMatmulTiling {
  int64_t tile_m = 0;
  int64_t tile_n = 0;
  int64_t tile_k = 0;
};

// The tiling BuildMatmulProgram picks when the options leave it open: the one whose cycle
// estimate (the simulator's cost formulas summed per module) is lowest among those that fit.
absl::StatusOr<VtaMatmulTiling> ChooseMatmulTiling(const VtaConfig& config, int64_t m, int64_t k,
                                                   int64_t n, int buffers);

// InvalidArgument when a dimension is not a positive multiple of its block, a tile does not
// divide it or does not fit the buffers, or an offset is misaligned.
absl::StatusOr<VtaProgram> BuildMatmulProgram(const VtaConfig& config, int64_t m, int64_t k,
                                              int64_t n, const VtaMatmulLayout& layout,
                                              const VtaMatmulOptions& options);

// DRAM layouts of the operands: A row-major M x K to input entries ([m/batch][k/block_in], each
// batch x block_in), B row-major N x K to weight tiles ([n/block_out][k/block_in], each
// block_out x block_in), and C's output entries ([m/batch][n/block_out], each batch x
// block_out) back to row-major M x N. With batch 1, A and C are simply row-major.
std::vector<int8_t> PackMatmulInput(const VtaConfig& config, const std::vector<int8_t>& a,
                                    int64_t m, int64_t k);
std::vector<int8_t> PackMatmulWeight(const VtaConfig& config, const std::vector<int8_t>& b,
                                     int64_t n, int64_t k);
std::vector<int8_t> UnpackMatmulOutput(const VtaConfig& config, absl::Span<const uint8_t> c_entries,
                                       int64_t m, int64_t n);

}  // namespace tunefarm::runtime::vta
