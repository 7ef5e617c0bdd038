#include "compiler/topi/gpu_depthwise_conv2d_knobs.h"

#include "compiler/topi/common_knobs.h"
#include "compiler/topi/gpu_common_knobs.h"
#include "compiler/topi/gpu_nchw_limits.h"
#include "compiler/topi/injective_schedule.h"

namespace tunefarm::topi {

namespace {}  // namespace

absl::Status DefineGpuDepthwiseConv2dKnobs(space::ConfigSpace& space,
                                           const DepthwiseConv2dTensors& t,
                                           const Window2d& window) {
  if (!t.out.defined()) {
    return absl::InvalidArgumentError("gpu depthwise_conv2d knobs: no depthwise_conv2d tensors");
  }
  const auto& axes = t.out.op()->axis;
  const auto& r = t.out.op()->reduce_axis;
  const int64_t kh = AxisExtent(r[0]), kw = AxisExtent(r[1]);
  for (const absl::Status& st : {DefineGpuAxisKnob(space, "tile_c", AxisExtent(axes[1])),
                                 DefineGpuAxisKnob(space, "tile_y", AxisExtent(axes[2])),
                                 DefineGpuAxisKnob(space, "tile_x", AxisExtent(axes[3])),
                                 DefineFlagKnob(space, "shared_input", true, true),
                                 DefineFlagKnob(space, "unroll_window", kh * kw > 1, true),
                                 DefineFlagKnob(space, "unroll_tile", true, true)}) {
    if (!st.ok()) return st;
  }
  absl::StatusOr<SplitView> vc = SplitView::Of(space, "tile_c");
  absl::StatusOr<SplitView> vy = SplitView::Of(space, "tile_y");
  absl::StatusOr<SplitView> vx = SplitView::Of(space, "tile_x");
  absl::StatusOr<KnobView> vs = KnobView::Of(space, "shared_input");
  if (!vc.ok() || !vy.ok() || !vx.ok() || !vs.ok()) {
    return absl::InternalError("gpu depthwise_conv2d knobs: no views");
  }
  auto config_of = [c = *vc, y = *vy, x = *vx, sh = *vs](const space::Config& p) {
    GpuDepthwiseConv2dScheduleConfig g;
    g.c = c.Tile(p);
    g.y = y.Tile(p);
    g.x = x.Tile(p);
    g.shared_input = sh.Int(p) != 0;
    return g;
  };
  return AddGpuNchwLimits<GpuDepthwiseConv2dScheduleConfig>(
      space, config_of, &GpuDepthwiseConv2dScheduleConfig::c, AxisExtent(axes[0]),
      AxisExtent(axes[1]), AxisExtent(axes[2]), window, kh, kw, kGpuMaxAccumulators);
}

absl::StatusOr<GpuDepthwiseConv2dScheduleConfig> GpuDepthwiseConv2dConfigFromKnobs(
    const space::Config& config) {
  GpuDepthwiseConv2dScheduleConfig c;
  for (auto [name, tile] : {std::pair{"tile_c", &c.c}, {"tile_y", &c.y}, {"tile_x", &c.x}}) {
    absl::StatusOr<GpuAxisTile> t = ReadGpuAxisKnob(config, name);
    if (!t.ok()) return t.status();
    *tile = *t;
  }
  KnobReader r(config);
  c.shared_input = r.Flag("shared_input");
  c.unroll_window = r.Flag("unroll_window");
  c.unroll_tile = r.Flag("unroll_tile");
  if (!r.ok()) return r.status();
  return c;
}

absl::StatusOr<space::Config> GpuDepthwiseConv2dKnobsFromConfig(
    const space::ConfigSpace& space, const GpuDepthwiseConv2dScheduleConfig& c) {
  using K = GpuKnobTarget::Kind;
  return GpuKnobPoint(space,
                      {{"tile_c", K::kTile, c.c},
                       {"tile_y", K::kTile, c.y},
                       {"tile_x", K::kTile, c.x},
                       {"shared_input", K::kInt, {}, int64_t{c.shared_input}},
                       {"unroll_window", K::kInt, {}, int64_t{c.unroll_window}},
                       {"unroll_tile", K::kInt, {}, int64_t{c.unroll_tile}}},
                      "gpu depthwise_conv2d knobs");
}

}  // namespace tunefarm::topi
