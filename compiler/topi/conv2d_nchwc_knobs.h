// The blocked conv2d's knobs (NCHW[ic]c data, OIHW[ic]i[oc]o kernel): Conv2dNchwcScheduleConfig's
// fields, the channel blocks included, as a config space around the library default.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "compiler/space/config.h"
#include "compiler/space/config_space.h"
#include "compiler/topi/conv2d_nchwc.h"
#include "compiler/topi/cpu_info.h"
#include "compiler/topi/window.h"

namespace tunefarm::topi {

// Declares, for a conv of NCHW data `data_shape` and OIHW kernel `kernel_shape` on `cpu`
// (vector lanes fixed to the CPU's):
//   ic_block, oc_block  the layout's channel blocks (they change the arguments' shapes; the oc
//                       block is whole vectors, at most the rounded-up output channels)
//   reg_w               output columns per register tile (unrolled)
//   order               "channel_first" (cb, kh, kw, ci) or "window_first" (kh, kw, cb, ci)
//   unroll_kw, pad_inline (each only where it can matter: a wide window, padding), parallel
//   oc_blocks_inner     loop order (n, row, oc block) instead of (n, oc block, row)
// Every value DefaultConv2dNchwcConfig picks is in the space; register tiles that would spill
// are excluded. With `blocks` (a model's layout fixed them), the two block knobs have that one
// value each; an oc block that is not whole vectors is InvalidArgument.
absl::Status DefineConv2dNchwcKnobs(space::ConfigSpace& space,
                                    const std::vector<int64_t>& data_shape,
                                    const std::vector<int64_t>& kernel_shape,
                                    const Window2d& window, const CpuInfo& cpu,
                                    const std::optional<NchwcBlocks>& blocks = std::nullopt);

absl::StatusOr<Conv2dNchwcScheduleConfig> Conv2dNchwcConfigFromKnobs(const space::Config& config,
                                                                     const CpuInfo& cpu);

// The point of `space` nearest to `config`. Errors: a nearest point that breaks a constraint.
absl::StatusOr<space::Config> Conv2dNchwcKnobsFromConfig(const space::ConfigSpace& space,
                                                         const Conv2dNchwcScheduleConfig& config);

}  // namespace tunefarm::topi
