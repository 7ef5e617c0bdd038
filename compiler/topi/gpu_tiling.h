// Steps the GPU schedule templates share: one output axis cut into blocks x virtual threads x
// threads x register elements, thread axes, and cooperative fetching of a shared-memory tile.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "compiler/schedule/schedule.h"

namespace tunefarm::topi {

// GPU limits every template's config must respect (the CUDA minimum across sm_50..sm_90).
inline constexpr int64_t kGpuMaxThreadsPerBlock = 1024;
inline constexpr int64_t kGpuMaxSharedBytes = 48 * 1024;
// gridDim.y and gridDim.z (gridDim.x allows 2^31 - 1).
inline constexpr int64_t kGpuMaxGridYZ = 65535;
// blockDim.z (x and y allow 1024).
inline constexpr int64_t kGpuMaxBlockZ = 64;

// How one output axis is spread over a block: `vthreads` virtual threads (strided, so
// neighbouring threads touch neighbouring elements), `threads` threads, `inner` consecutive
// elements per thread (the register tile). The axis is covered by ceil(extent / Span()) blocks;
// the last block's tail is guarded.
struct GpuAxisTile {
  int64_t vthreads = 1;
  int64_t threads = 1;
  int64_t inner = 1;
  int64_t Span() const { return vthreads * threads * inner; }
  bool Valid() const { return vthreads > 0 && threads > 0 && inner > 0; }
  int64_t Blocks(int64_t extent) const { return (extent + Span() - 1) / Span(); }
  std::string ToString() const;  // "v2t8i4"
};

struct GpuAxisLoops {
  ir::IterVar block, vthread, thread, inner;
};

// Splits `axis` of `s` into block, vthread, thread and inner loops (not reordered or bound).
GpuAxisLoops SplitGpuAxis(schedule::Stage& s, const ir::IterVar& axis, const GpuAxisTile& tile);

// A thread axis ("threadIdx.x", "vthread", ...) of a constant extent.
ir::IterVar GpuThreadAxis(const std::string& tag, int64_t extent, const std::string& name = "");
// A block axis ("blockIdx.x"), its extent taken from the loop it is bound to.
ir::IterVar GpuBlockAxis(const std::string& tag);

// The block's threads as bound by the output stage, outermost first (z, y, x), with their
// extents: a shared-memory stage uses the same axes for its cooperative fetch.
struct GpuBlockThreads {
  std::vector<ir::IterVar> axes;
  std::vector<int64_t> extents;
  int64_t Count() const;
};

// Cooperative fetching: fuses all of `s`'s axes (a shared-memory copy computed at the block's
// reduction step) and spreads the copy over the block's threads, consecutive elements to
// consecutive threadIdx.x (coalesced), the rest in an outer loop guarded at the tail.
void CooperativeFetch(schedule::Stage& s, const GpuBlockThreads& threads);

// An NCHW output stage tiled for the GPU: channel, y and x each cut by SplitGpuAxis; the batch
// fused with the channel blocks on blockIdx.z, the y and x blocks on blockIdx.y/x, virtual threads
// next, then threadIdx.z/y/x, the register tile innermost. `channel_name` names the channel's
// vthread ("v" + name).
struct GpuNchwTiling {
  GpuBlockThreads threads;
  GpuAxisLoops channel, y, x;
};
GpuNchwTiling TileGpuNchwOutput(schedule::Stage& out, const GpuAxisTile& channel,
                                const GpuAxisTile& y, const GpuAxisTile& x,
                                const std::string& channel_name);

// Bytes of a float32 tile of the given extents.
int64_t TileBytes(const std::vector<int64_t>& extents);

}  // namespace tunefarm::topi
