#include "compiler/topi/gpu_matmul_knobs.h"

#include "compiler/topi/common_knobs.h"
#include "compiler/topi/gpu_common_knobs.h"
#include "compiler/topi/injective_schedule.h"

namespace tunefarm::topi {

namespace {}  // namespace

absl::Status DefineGpuMatmulKnobs(space::ConfigSpace& space, const GemmTensors& t) {
  if (!t.c.defined() || t.batched || t.blocked.defined()) {
    return absl::InvalidArgumentError("gpu matmul knobs: needs an unpacked MatmulCompute");
  }
  const auto& axes = t.c.op()->axis;
  const int64_t k = AxisExtent(t.c.op()->reduce_axis[0]);
  for (const absl::Status& st :
       {DefineGpuAxisKnob(space, "tile_m", AxisExtent(axes[0])),
        DefineGpuAxisKnob(space, "tile_n", AxisExtent(axes[1])),
        DefineGpuReduceKnob(space, "tile_k", k, 64), DefineFlagKnob(space, "unroll_k", true, true),
        DefineFlagKnob(space, "unroll_tile", true, true)}) {
    if (!st.ok()) return st;
  }
  absl::StatusOr<SplitView> vm = SplitView::Of(space, "tile_m");
  absl::StatusOr<SplitView> vn = SplitView::Of(space, "tile_n");
  absl::StatusOr<SplitView> vk = SplitView::Of(space, "tile_k");
  if (!vm.ok() || !vn.ok() || !vk.ok()) return absl::InternalError("gpu matmul knobs: no views");
  auto config_of = [m = *vm, n = *vn, kk = *vk](const space::Config& c) {
    GpuMatmulScheduleConfig g;
    g.m = m.Tile(c);
    g.n = n.Tile(c);
    g.tile_k = kk.Factors(c).back();
    return g;
  };
  for (const absl::Status& st : {
           space.AddConstraint("threads per block <= 1024",
                               [=](const space::Config& c) {
                                 return config_of(c).Threads() <= kGpuMaxThreadsPerBlock;
                               }),
           space.AddConstraint("row blocks <= 65535",
                               [=, m = AxisExtent(axes[0])](const space::Config& c) {
                                 return config_of(c).m.Blocks(m) <= kGpuMaxGridYZ;
                               }),
           space.AddConstraint("shared memory <= 48 KiB",
                               [=](const space::Config& c) {
                                 return config_of(c).SharedBytes() <= kGpuMaxSharedBytes;
                               }),
           space.AddConstraint("register tile <= 64 accumulators",
                               [=](const space::Config& c) {
                                 const GpuMatmulScheduleConfig g = config_of(c);
                                 return g.m.vthreads * g.m.inner * g.n.vthreads * g.n.inner <=
                                        kGpuMaxAccumulators;
                               }),
       }) {
    if (!st.ok()) return st;
  }
  return absl::OkStatus();
}

absl::StatusOr<GpuMatmulScheduleConfig> GpuMatmulConfigFromKnobs(const space::Config& config) {
  GpuMatmulScheduleConfig c;
  absl::StatusOr<GpuAxisTile> m = ReadGpuAxisKnob(config, "tile_m");
  if (!m.ok()) return m.status();
  absl::StatusOr<GpuAxisTile> n = ReadGpuAxisKnob(config, "tile_n");
  if (!n.ok()) return n.status();
  absl::StatusOr<int64_t> k = ReadGpuReduceKnob(config, "tile_k");
  if (!k.ok()) return k.status();
  c.m = *m;
  c.n = *n;
  c.tile_k = *k;
  KnobReader r(config);
  c.unroll_k = r.Flag("unroll_k");
  c.unroll_tile = r.Flag("unroll_tile");
  if (!r.ok()) return r.status();
  return c;
}

absl::StatusOr<space::Config> GpuMatmulKnobsFromConfig(const space::ConfigSpace& space,
                                                       const GpuMatmulScheduleConfig& c) {
  using K = GpuKnobTarget::Kind;
  return GpuKnobPoint(space,
                      {{"tile_m", K::kTile, c.m},
                       {"tile_n", K::kTile, c.n},
                       {"tile_k", K::kStep, {}, c.tile_k},
                       {"unroll_k", K::kInt, {}, int64_t{c.unroll_k}},
                       {"unroll_tile", K::kInt, {}, int64_t{c.unroll_tile}}},
                      "gpu matmul knobs");
}

}  // namespace tunefarm::topi
