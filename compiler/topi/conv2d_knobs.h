// The direct NCHW conv2d's knobs: Conv2dScheduleConfig's fields as a config space around the
// library default, and the mappings between that space and the config.
#pragma once

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "compiler/space/config.h"
#include "compiler/space/config_space.h"
#include "compiler/topi/conv2d.h"
#include "compiler/topi/cpu_info.h"
#include "compiler/topi/window.h"

namespace tunefarm::topi {

// Declares, for the conv `t` (from Conv2dCompute with `window`) on `cpu`:
//   vector_lanes     the CPU's lanes, or a half or quarter of them (at least 4): a narrower
//                    vector may divide the output row where a full one leaves a scalar tail
//   reg_w_vectors    output columns per register tile, in vectors
//   reg_o            output channels per register tile (unrolled)
//   order            "channel_first" (c, kh, kw) or "window_first" (kh, kw, c)
//   unroll_kw, pad_inline (each only where it can matter: a wide window, padding), parallel
// Every value DefaultConv2dConfig picks is in the space; register tiles that would spill and
// tiles wider than the (rounded) output row are excluded.
absl::Status DefineConv2dKnobs(space::ConfigSpace& space, const Conv2dTensors& t,
                               const Window2d& window, const CpuInfo& cpu);

absl::StatusOr<Conv2dScheduleConfig> Conv2dConfigFromKnobs(const space::Config& config,
                                                           const CpuInfo& cpu);

// The point of `space` nearest to `config`. Errors: a nearest point that breaks a constraint.
absl::StatusOr<space::Config> Conv2dKnobsFromConfig(const space::ConfigSpace& space,
                                                    const Conv2dScheduleConfig& config);

}  // namespace tunefarm::topi
