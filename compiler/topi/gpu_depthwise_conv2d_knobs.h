// The GPU depthwise conv2d (NCHW) template's knobs: GpuDepthwiseConv2dScheduleConfig's fields as
// a config space.
#pragma once

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "compiler/space/config.h"
#include "compiler/space/config_space.h"
#include "compiler/topi/depthwise_conv2d.h"
#include "compiler/topi/gpu_depthwise_conv2d.h"
#include "compiler/topi/window.h"

namespace tunefarm::topi {

// Declares, for the depthwise conv `t` (from DepthwiseConv2dCompute with `window`):
//   tile_c, tile_y, tile_x  4-part splits [blocks, vthreads, threads, inner] of the output
//                           channels, rows and columns
//   shared_input, unroll_window, unroll_tile
// with constraints: threads per block <= 1024, shared input <= 48 KiB, a register tile of at
// most 64 accumulators.
absl::Status DefineGpuDepthwiseConv2dKnobs(space::ConfigSpace& space,
                                           const DepthwiseConv2dTensors& t, const Window2d& window);

absl::StatusOr<GpuDepthwiseConv2dScheduleConfig> GpuDepthwiseConv2dConfigFromKnobs(
    const space::Config& config);

// The point of `space` that is `config` (DefaultGpuDepthwiseConv2dConfig's is one). Errors: a
// field the space lacks (InvalidArgument), a point breaking a constraint (FailedPrecondition).
absl::StatusOr<space::Config> GpuDepthwiseConv2dKnobsFromConfig(
    const space::ConfigSpace& space, const GpuDepthwiseConv2dScheduleConfig& config);

}  // namespace tunefarm::topi
