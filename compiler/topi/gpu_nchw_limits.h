// The constraints every GPU NCHW convolution space shares: threads per block, grid y and z
// (the batch rides on z with the channel blocks), shared memory, and the register tile's size.
#pragma once

#include <cstdint>

#include "absl/status/status.h"
#include "compiler/space/config.h"
#include "compiler/space/config_space.h"
#include "compiler/topi/gpu_tiling.h"
#include "compiler/topi/window.h"

namespace tunefarm::topi {

// `config_of` maps a point of `space` to the schedule config G, whose `channel` member is the
// output-channel tile and which has y and x tiles, Threads() and SharedBytes(window, kh, kw).
// `batch`, `channels` and `height` are the output's extents.
template <typename G, typename ConfigOf>
absl::Status AddGpuNchwLimits(space::ConfigSpace& space, ConfigOf config_of,
                              GpuAxisTile G::*channel, int64_t batch, int64_t channels,
                              int64_t height, const Window2d& window, int64_t kh, int64_t kw,
                              int64_t max_accumulators) {
  for (const absl::Status& st : {
           space.AddConstraint("threads per block <= 1024",
                               [=](const space::Config& c) {
                                 return config_of(c).Threads() <= kGpuMaxThreadsPerBlock;
                               }),
           space.AddConstraint("threads on z (the channel tile's) <= 64",
                               [=](const space::Config& c) {
                                 return (config_of(c).*channel).threads <= kGpuMaxBlockZ;
                               }),
           space.AddConstraint("grid z and y <= 65535",
                               [=](const space::Config& c) {
                                 const G g = config_of(c);
                                 return batch * (g.*channel).Blocks(channels) <= kGpuMaxGridYZ &&
                                        g.y.Blocks(height) <= kGpuMaxGridYZ;
                               }),
           space.AddConstraint("shared memory <= 48 KiB",
                               [=](const space::Config& c) {
                                 return config_of(c).SharedBytes(window, kh, kw) <=
                                        kGpuMaxSharedBytes;
                               }),
           space.AddConstraint("register tile <= 64 accumulators",
                               [=](const space::Config& c) {
                                 const G g = config_of(c);
                                 const GpuAxisTile& ch = g.*channel;
                                 return ch.vthreads * ch.inner * g.y.vthreads * g.y.inner *
                                            g.x.vthreads * g.x.inner <=
                                        max_accumulators;
                               }),
       }) {
    if (!st.ok()) return st;
  }
  return absl::OkStatus();
}

}  // namespace tunefarm::topi
