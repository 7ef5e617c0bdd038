// The channel-blocked depthwise conv2d's knobs: DepthwiseConv2dNchwcScheduleConfig's fields, the
// channel block included (it changes the arguments' layouts), as a config space.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "compiler/space/config.h"
#include "compiler/space/config_space.h"
#include "compiler/topi/cpu_info.h"
#include "compiler/topi/depthwise_conv2d_nchwc.h"
#include "compiler/topi/window.h"

namespace tunefarm::topi {

// Declares, for NCHW `data_shape` and a kh x kw window on `cpu` (lanes fixed to the CPU's):
//   channel_block   1, 2 or 4 vectors of channels (at most the rounded-up channel count)
//   reg_w           output columns per register tile (unrolled), within the registers
//   unroll_window, pad_inline (each only where it can matter), parallel
// Every value DefaultDepthwiseConv2dNchwcConfig picks is in the space. With `channel_block` (a
// model's layout fixed it), the block knob has that one value; one that is not whole vectors is
// InvalidArgument.
absl::Status DefineDepthwiseConv2dNchwcKnobs(space::ConfigSpace& space,
                                             const std::vector<int64_t>& data_shape, int64_t kh,
                                             int64_t kw, const Window2d& window, const CpuInfo& cpu,
                                             std::optional<int64_t> channel_block = std::nullopt);

absl::StatusOr<DepthwiseConv2dNchwcScheduleConfig> DepthwiseConv2dNchwcConfigFromKnobs(
    const space::Config& config, const CpuInfo& cpu);

// The point of `space` nearest to `config`. Errors: a nearest point that breaks a constraint.
absl::StatusOr<space::Config> DepthwiseConv2dNchwcKnobsFromConfig(
    const space::ConfigSpace& space, const DepthwiseConv2dNchwcScheduleConfig& config);

}  // namespace tunefarm::topi
