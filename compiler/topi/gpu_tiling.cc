#include "compiler/topi/gpu_tiling.h"

#include "absl/strings/str_cat.h"
#include "compiler/te/tensor.h"
#include "compiler/topi/loop_tiling.h"
#include "compiler/topi/static_shape.h"

namespace tunefarm::topi {

std::string GpuAxisTile::ToString() const {
  return absl::StrCat("v", vthreads, "t", threads, "i", inner);
}

GpuAxisLoops SplitGpuAxis(schedule::Stage& s, const ir::IterVar& axis, const GpuAxisTile& tile) {
  GpuAxisLoops loops;
  ir::IterVar rest = SplitBy(s, axis, tile.inner, &loops.inner);
  rest = SplitBy(s, rest, tile.threads, &loops.thread);
  loops.block = SplitBy(s, rest, tile.vthreads, &loops.vthread);
  return loops;
}

ir::IterVar GpuThreadAxis(const std::string& tag, int64_t extent, const std::string& name) {
  return te::thread_axis(ir::Range::FromMinExtent(Imm(0), Imm(extent)), tag, name);
}

ir::IterVar GpuBlockAxis(const std::string& tag) { return te::thread_axis(ir::Range(), tag); }

int64_t GpuBlockThreads::Count() const {
  int64_t n = 1;
  for (int64_t e : extents) n *= e;
  return n;
}

void CooperativeFetch(schedule::Stage& s, const GpuBlockThreads& threads) {
  const ir::IterVar fused = FuseOuter(s, s.op()->axis, /*parallel=*/false);
  // Innermost thread first: split off threadIdx.x, then y, then z; what is left loops inside
  // the threads (the element index stays rest * threads + thread, so loads coalesce).
  ir::IterVar rest = fused;
  std::vector<ir::IterVar> bound(threads.axes.size());
  for (size_t i = threads.axes.size(); i-- > 0;) {
    rest = SplitBy(s, rest, threads.extents[i], &bound[i]);
  }
  std::vector<ir::IterVar> order = bound;
  order.push_back(rest);
  s.reorder(order);
  for (size_t i = 0; i < threads.axes.size(); ++i) s.bind(bound[i], threads.axes[i]);
}

int64_t TileBytes(const std::vector<int64_t>& extents) {
  int64_t n = 4;
  for (int64_t e : extents) n *= e;
  return n;
}

GpuNchwTiling TileGpuNchwOutput(schedule::Stage& out, const GpuAxisTile& channel,
                                const GpuAxisTile& y, const GpuAxisTile& x,
                                const std::string& channel_name) {
  GpuNchwTiling t{
      {{GpuThreadAxis("threadIdx.z", channel.threads), GpuThreadAxis("threadIdx.y", y.threads),
        GpuThreadAxis("threadIdx.x", x.threads)},
       {channel.threads, y.threads, x.threads}},
      {},
      {},
      {}};
  const auto axes = out.op()->axis;  // n, channel, y, x
  t.channel = SplitGpuAxis(out, axes[1], channel);
  t.y = SplitGpuAxis(out, axes[2], y);
  t.x = SplitGpuAxis(out, axes[3], x);
  const GpuAxisLoops& lc = t.channel;
  const GpuAxisLoops& ly = t.y;
  const GpuAxisLoops& lx = t.x;
  out.reorder({axes[0], lc.block, ly.block, lx.block, lc.vthread, ly.vthread, lx.vthread, lc.thread,
               ly.thread, lx.thread, lc.inner, ly.inner, lx.inner});
  ir::IterVar nc;
  out.fuse(axes[0], lc.block, &nc);
  out.bind(nc, GpuBlockAxis("blockIdx.z"));
  out.bind(ly.block, GpuBlockAxis("blockIdx.y"));
  out.bind(lx.block, GpuBlockAxis("blockIdx.x"));
  out.bind(lc.vthread, GpuThreadAxis("vthread", channel.vthreads, "v" + channel_name));
  out.bind(ly.vthread, GpuThreadAxis("vthread", y.vthreads, "vy"));
  out.bind(lx.vthread, GpuThreadAxis("vthread", x.vthreads, "vx"));
  out.bind(lc.thread, t.threads.axes[0]);
  out.bind(ly.thread, t.threads.axes[1]);
  out.bind(lx.thread, t.threads.axes[2]);
  return t;
}

}  // namespace tunefarm::topi
