// The Winograd conv's knobs: Conv2dWinogradScheduleConfig's fields as a config space around the
// library default, the tile m of F(m x m, 3x3) among them (it changes the transformed weight's
// shape, so a record is measured with its own weight).
#pragma once

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "compiler/space/config.h"
#include "compiler/space/config_space.h"
#include "compiler/topi/conv2d_winograd.h"
#include "compiler/topi/cpu_info.h"

namespace tunefarm::topi {

// For an oc block of `oc_block` channels on `cpu` (vector lanes fixed to the CPU's):
//   tile      2, 4 or 6
//   reg_p     tiles per register block of the product (unrolled)
//   parallel
// Register blocks that would spill are excluded. InvalidArgument for an oc block that is not
// whole vectors.
absl::Status DefineConv2dWinogradKnobs(space::ConfigSpace& space, int64_t oc_block,
                                       const CpuInfo& cpu);

absl::StatusOr<Conv2dWinogradScheduleConfig> Conv2dWinogradConfigFromKnobs(
    const space::Config& config, const CpuInfo& cpu);

// The point of `space` nearest to `config`.
absl::StatusOr<space::Config> Conv2dWinogradKnobsFromConfig(
    const space::ConfigSpace& space, const Conv2dWinogradScheduleConfig& config);

}  // namespace tunefarm::topi
