// The GPU schedule template of depthwise conv2d in NCHW (DepthwiseConv2dCompute, any channel
// multiplier): per block a tile of output channels x rows x columns, optionally with the input
// window it reads staged in shared memory (fetched cooperatively), a register tile per thread.
#pragma once

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "compiler/topi/depthwise_conv2d.h"
#include "compiler/topi/gpu_tiling.h"
#include "compiler/topi/scheduled_op.h"
#include "compiler/topi/window.h"

namespace tunefarm::topi {

struct GpuDepthwiseConv2dScheduleConfig {
  GpuAxisTile c{1, 1, 1};     // output channels: vthread, threadIdx.z, registers
  GpuAxisTile y{1, 4, 1};     // output rows: vthread, threadIdx.y, registers
  GpuAxisTile x{1, 8, 1};     // output columns: vthread, threadIdx.x, registers
  bool shared_input = true;   // stage the block's input window in shared memory
  bool unroll_window = true;  // unroll the kernel window's loops
  bool unroll_tile = true;    // unroll the register tile's loops
  std::string ToString() const;
  int64_t Threads() const { return c.threads * y.threads * x.threads; }
  // The shared input window (at most c span channels x rows x columns), float32; 0 without
  // shared_input.
  int64_t SharedBytes(const Window2d& window, int64_t kh, int64_t kw) const;
};

// A valid config, and a point of its knob space: one channel per block, up to 4 x 8 threads over
// rows and columns (lowered to divisors of the knobs' extents), the input in shared memory.
GpuDepthwiseConv2dScheduleConfig DefaultGpuDepthwiseConv2dConfig(const DepthwiseConv2dTensors& t);

// `window` is the one `t` was computed with; `output`, when given, an epilogue over `t.out` as
// in ScheduleGpuConv2d. Errors: a non-positive field, more than kGpuMaxThreadsPerBlock threads or
// kGpuMaxSharedBytes of shared memory (InvalidArgument); an epilogue that widens the output
// (FailedPrecondition).
absl::StatusOr<ScheduledOp> ScheduleGpuDepthwiseConv2d(
    const GpuDepthwiseConv2dScheduleConfig& config, const DepthwiseConv2dTensors& t,
    const Window2d& window, const te::Tensor& output = te::Tensor());

}  // namespace tunefarm::topi
