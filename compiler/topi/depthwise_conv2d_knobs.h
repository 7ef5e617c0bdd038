// The depthwise conv2d's knobs (NCHW, the window-reduction schedule): WindowScheduleConfig's
// fields as a config space around the library default.
#pragma once

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "compiler/space/config.h"
#include "compiler/space/config_space.h"
#include "compiler/topi/cpu_info.h"
#include "compiler/topi/depthwise_conv2d.h"
#include "compiler/topi/window.h"

namespace tunefarm::topi {

// Declares, for the depthwise conv `t` (from DepthwiseConv2dCompute with `window`) on `cpu`:
//   vector_lanes    the CPU's lanes, or a half or quarter of them (at least 4)
//   reg_w_vectors   output columns per tile, in vectors (1..8, within the rounded output row)
//   unroll_window, pad_inline (each only where it can matter), parallel
// Every value DefaultDepthwiseConv2dConfig picks is in the space.
absl::Status DefineDepthwiseConv2dKnobs(space::ConfigSpace& space, const DepthwiseConv2dTensors& t,
                                        const Window2d& window, const CpuInfo& cpu);

absl::StatusOr<DepthwiseConv2dScheduleConfig> DepthwiseConv2dConfigFromKnobs(
    const space::Config& config, const CpuInfo& cpu);

// The point of `space` nearest to `config`. Errors: a nearest point that breaks a constraint.
absl::StatusOr<space::Config> DepthwiseConv2dKnobsFromConfig(
    const space::ConfigSpace& space, const DepthwiseConv2dScheduleConfig& config);

}  // namespace tunefarm::topi
