// The GEMM family's knobs (matmul, dense, batch_matmul): GemmScheduleConfig's fields as a config
// space around the library default, and the mappings between that space and the config.
#pragma once

#include <cstdint>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "compiler/space/config.h"
#include "compiler/space/config_space.h"
#include "compiler/topi/cpu_info.h"
#include "compiler/topi/gemm.h"
#include "compiler/topi/gemm_schedule.h"

namespace tunefarm::topi {

// Declares, for C[batch, m, n] = A[m, k] B(k, n) on `cpu` (vector lanes fixed to the CPU's):
//   reg_m, reg_n_vectors    register tile (rows; columns in vectors), within the registers
//   tile_m, tile_n          cache block, whole register tiles, at most the (rounded) shape
//   accumulator, tile_k     "register" with tile_k 0, or "cache_block" with a k block
//   order                   "mn" or "nm": which block loop is outer
//   pack_weight, pack_weight_at_block, pack_input, unroll_k, parallel
// Every value DefaultGemmConfig picks for this shape is in the space. Constraints drop register
// tiles that would spill, blocks that are not whole tiles, and knob combinations that mean
// nothing (a k block with the register accumulator, packing per block without packing).
// With `packed_block` > 0 the weight was packed at build time in blocks of that many columns
// (PackedMatmulCompute): the register tile is one block wide, and nothing is packed in the kernel.
absl::Status DefineGemmKnobs(space::ConfigSpace& space, int64_t batch, int64_t m, int64_t n,
                             int64_t k, const CpuInfo& cpu, WeightLayout layout,
                             int64_t packed_block = 0);

// The schedule config of one point of a DefineGemmKnobs space (lanes from `cpu`). Errors: a
// space without the GEMM knobs.
absl::StatusOr<GemmScheduleConfig> GemmConfigFromKnobs(const space::Config& config,
                                                       const CpuInfo& cpu);

// The point of `space` nearest to `config` (each field to its knob's nearest value; the k block
// only counts with the block accumulator). Errors: a nearest point that breaks a constraint.
absl::StatusOr<space::Config> GemmKnobsFromConfig(const space::ConfigSpace& space,
                                                  const GemmScheduleConfig& config);

}  // namespace tunefarm::topi
