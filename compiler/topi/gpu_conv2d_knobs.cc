#include "compiler/topi/gpu_conv2d_knobs.h"

#include "compiler/topi/common_knobs.h"
#include "compiler/topi/gpu_common_knobs.h"
#include "compiler/topi/gpu_nchw_limits.h"
#include "compiler/topi/injective_schedule.h"

namespace tunefarm::topi {

namespace {}  // namespace

absl::Status DefineGpuConv2dKnobs(space::ConfigSpace& space, const Conv2dTensors& t,
                                  const Window2d& window) {
  if (!t.out.defined()) return absl::InvalidArgumentError("gpu conv2d knobs: no conv2d tensors");
  const auto& axes = t.out.op()->axis;
  const auto& r = t.out.op()->reduce_axis;
  const int64_t kh = AxisExtent(r[1]), kw = AxisExtent(r[2]);
  for (const absl::Status& st : {DefineGpuAxisKnob(space, "tile_f", AxisExtent(axes[1])),
                                 DefineGpuAxisKnob(space, "tile_y", AxisExtent(axes[2])),
                                 DefineGpuAxisKnob(space, "tile_x", AxisExtent(axes[3])),
                                 DefineGpuReduceKnob(space, "tile_rc", AxisExtent(r[0]), 32),
                                 DefineFlagKnob(space, "unroll_window", kh * kw > 1, true),
                                 DefineFlagKnob(space, "unroll_tile", true, true)}) {
    if (!st.ok()) return st;
  }
  absl::StatusOr<SplitView> vf = SplitView::Of(space, "tile_f");
  absl::StatusOr<SplitView> vy = SplitView::Of(space, "tile_y");
  absl::StatusOr<SplitView> vx = SplitView::Of(space, "tile_x");
  absl::StatusOr<SplitView> vc = SplitView::Of(space, "tile_rc");
  if (!vf.ok() || !vy.ok() || !vx.ok() || !vc.ok()) {
    return absl::InternalError("gpu conv2d knobs: no views");
  }
  auto config_of = [f = *vf, y = *vy, x = *vx, rc = *vc](const space::Config& c) {
    GpuConv2dScheduleConfig g;
    g.f = f.Tile(c);
    g.y = y.Tile(c);
    g.x = x.Tile(c);
    g.tile_rc = rc.Factors(c).back();
    return g;
  };
  return AddGpuNchwLimits<GpuConv2dScheduleConfig>(
      space, config_of, &GpuConv2dScheduleConfig::f, AxisExtent(axes[0]), AxisExtent(axes[1]),
      AxisExtent(axes[2]), window, kh, kw, kGpuMaxAccumulators);
}

absl::StatusOr<GpuConv2dScheduleConfig> GpuConv2dConfigFromKnobs(const space::Config& config) {
  GpuConv2dScheduleConfig c;
  for (auto [name, tile] : {std::pair{"tile_f", &c.f}, {"tile_y", &c.y}, {"tile_x", &c.x}}) {
    absl::StatusOr<GpuAxisTile> t = ReadGpuAxisKnob(config, name);
    if (!t.ok()) return t.status();
    *tile = *t;
  }
  absl::StatusOr<int64_t> rc = ReadGpuReduceKnob(config, "tile_rc");
  if (!rc.ok()) return rc.status();
  c.tile_rc = *rc;
  KnobReader r(config);
  c.unroll_window = r.Flag("unroll_window");
  c.unroll_tile = r.Flag("unroll_tile");
  if (!r.ok()) return r.status();
  return c;
}

absl::StatusOr<space::Config> GpuConv2dKnobsFromConfig(const space::ConfigSpace& space,
                                                       const GpuConv2dScheduleConfig& c) {
  using K = GpuKnobTarget::Kind;
  return GpuKnobPoint(space,
                      {{"tile_f", K::kTile, c.f},
                       {"tile_y", K::kTile, c.y},
                       {"tile_x", K::kTile, c.x},
                       {"tile_rc", K::kStep, {}, c.tile_rc},
                       {"unroll_window", K::kInt, {}, int64_t{c.unroll_window}},
                       {"unroll_tile", K::kInt, {}, int64_t{c.unroll_tile}}},
                      "gpu conv2d knobs");
}

}  // namespace tunefarm::topi
