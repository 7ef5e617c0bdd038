// The GPU conv2d (NCHW) template's knobs: GpuConv2dScheduleConfig's fields as a config space.
#pragma once

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "compiler/space/config.h"
#include "compiler/space/config_space.h"
#include "compiler/topi/conv2d.h"
#include "compiler/topi/gpu_conv2d.h"
#include "compiler/topi/window.h"

namespace tunefarm::topi {

// Declares, for the conv2d `t` (from Conv2dCompute with `window`):
//   tile_f, tile_y, tile_x  4-part splits [blocks, vthreads, threads, inner] of the output
//                           channels, rows and columns
//   tile_rc                 2-part split [steps, step] of the input channels (step <= 32)
//   unroll_window, unroll_tile
// with constraints: threads per block <= 1024, shared tiles <= 48 KiB, a register tile of at
// most 64 accumulators.
absl::Status DefineGpuConv2dKnobs(space::ConfigSpace& space, const Conv2dTensors& t,
                                  const Window2d& window);

absl::StatusOr<GpuConv2dScheduleConfig> GpuConv2dConfigFromKnobs(const space::Config& config);

// The point of `space` that is `config` (DefaultGpuConv2dConfig's is one). Errors: a field the
// space lacks (InvalidArgument), a point breaking a constraint (FailedPrecondition).
absl::StatusOr<space::Config> GpuConv2dKnobsFromConfig(const space::ConfigSpace& space,
                                                       const GpuConv2dScheduleConfig& config);

}  // namespace tunefarm::topi
