// The GPU schedule template of matmul (C[m, n] = sum_k A[m, k] * B[k, n], from MatmulCompute
// without packing): shared-memory tiles of A and B per reduction step, fetched cooperatively,
// a register tile of C per thread, and virtual threads.
#pragma once

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "compiler/topi/gemm.h"
#include "compiler/topi/gpu_tiling.h"
#include "compiler/topi/scheduled_op.h"

namespace tunefarm::topi {

struct GpuMatmulScheduleConfig {
  GpuAxisTile m{1, 8, 2};   // rows: threadIdx.y, vthread y, register rows
  GpuAxisTile n{1, 8, 2};   // columns: threadIdx.x, vthread x, register columns
  int64_t tile_k = 8;       // reduction step: the k extent of the shared tiles
  bool unroll_k = true;     // unroll the step's k loop
  bool unroll_tile = true;  // unroll the register tile's loops
  std::string ToString() const;
  int64_t Threads() const { return m.threads * n.threads; }
  // A's (m-span x tile_k) plus B's (tile_k x n-span) shared tiles, float32.
  int64_t SharedBytes() const;
};

// A valid config for an m x n x k matmul, and a point of its knob space: 8x8 threads (fewer on
// a small side) with 2x2 registers each where the side allows, tile_k 8 (each lowered to a
// divisor of the knob's extent, gpu_common_knobs.h).
GpuMatmulScheduleConfig DefaultGpuMatmulConfig(int64_t m, int64_t n, int64_t k);

// Errors: tensors not from an unpacked MatmulCompute (FailedPrecondition); a non-positive field,
// more than kGpuMaxThreadsPerBlock threads or kGpuMaxSharedBytes of shared memory
// (InvalidArgument naming the config).
absl::StatusOr<ScheduledOp> ScheduleGpuMatmul(const GpuMatmulScheduleConfig& config,
                                              const GemmTensors& t);

}  // namespace tunefarm::topi
