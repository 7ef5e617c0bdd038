// The GPU schedule template of direct conv2d in NCHW (Conv2dCompute): per block a tile of output
// channels x rows x columns, per reduction step (a slice of input channels) the input window and
// the kernel slice in shared memory, fetched cooperatively; a register tile per thread, and
// virtual threads on all three output axes.
#pragma once

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "compiler/topi/conv2d.h"
#include "compiler/topi/gpu_tiling.h"
#include "compiler/topi/scheduled_op.h"
#include "compiler/topi/window.h"

namespace tunefarm::topi {

struct GpuConv2dScheduleConfig {
  GpuAxisTile f{1, 4, 1};     // output channels: vthread, threadIdx.z, registers
  GpuAxisTile y{1, 4, 1};     // output rows: vthread, threadIdx.y, registers
  GpuAxisTile x{1, 8, 1};     // output columns: vthread, threadIdx.x, registers
  int64_t tile_rc = 4;        // input channels per reduction step (the shared tiles' depth)
  bool unroll_window = true;  // unroll the kernel window's loops
  bool unroll_tile = true;    // unroll the register tile's loops
  std::string ToString() const;
  int64_t Threads() const { return f.threads * y.threads * x.threads; }
  // The input window (tile_rc x rows x columns a block's outputs read) plus the kernel slice
  // (f span x tile_rc x kh x kw), float32.
  int64_t SharedBytes(const Window2d& window, int64_t kh, int64_t kw) const;
};

// A valid config, and a point of its knob space: up to 4 x 4 x 8 threads, one output each, 4
// input channels per step (each lowered to a divisor of the knob's extent).
GpuConv2dScheduleConfig DefaultGpuConv2dConfig(const Conv2dTensors& t);

// `window` is the one `t` was computed with (it sizes the shared input tile). `output`, when
// given, is an epilogue over `t.out` (epilogue.h) that the kernel writes instead, applied in each
// thread's registers. Errors: a non-positive field, more than kGpuMaxThreadsPerBlock threads or
// kGpuMaxSharedBytes of shared memory (InvalidArgument naming the config); an epilogue that
// widens the output (FailedPrecondition).
absl::StatusOr<ScheduledOp> ScheduleGpuConv2d(const GpuConv2dScheduleConfig& config,
                                              const Conv2dTensors& t, const Window2d& window,
                                              const te::Tensor& output = te::Tensor());

}  // namespace tunefarm::topi
