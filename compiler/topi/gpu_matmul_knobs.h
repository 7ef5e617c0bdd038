// The GPU matmul template's knobs: GpuMatmulScheduleConfig's fields as a config space.
#pragma once

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "compiler/space/config.h"
#include "compiler/space/config_space.h"
#include "compiler/topi/gemm.h"
#include "compiler/topi/gpu_matmul.h"

namespace tunefarm::topi {

// Declares, for the matmul `t` (unpacked MatmulCompute):
//   tile_m, tile_n  4-part splits [blocks, vthreads, threads, inner] of the rows and columns
//   tile_k          2-part split [steps, step] of the reduction (step <= 64)
//   unroll_k, unroll_tile
// with constraints: threads per block <= 1024, shared tiles <= 48 KiB, a register tile
// (vthreads x inner on both sides) of at most 64 accumulators.
absl::Status DefineGpuMatmulKnobs(space::ConfigSpace& space, const GemmTensors& t);

absl::StatusOr<GpuMatmulScheduleConfig> GpuMatmulConfigFromKnobs(const space::Config& config);

// The point of `space` that is `config` (DefaultGpuMatmulConfig's is one). Errors: a field the
// space lacks (InvalidArgument), a point breaking a constraint (FailedPrecondition).
absl::StatusOr<space::Config> GpuMatmulKnobsFromConfig(const space::ConfigSpace& space,
                                                       const GpuMatmulScheduleConfig& config);

}  // namespace tunefarm::topi
