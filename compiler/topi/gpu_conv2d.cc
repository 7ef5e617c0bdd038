#include "compiler/topi/gpu_conv2d.h"

#include "absl/strings/str_cat.h"
#include "compiler/topi/epilogue.h"
#include "compiler/topi/gpu_common_knobs.h"
#include "compiler/topi/injective_schedule.h"
#include "compiler/topi/loop_tiling.h"

namespace tunefarm::topi {

std::string GpuConv2dScheduleConfig::ToString() const {
  return absl::StrCat("gpu_conv2d{f=", f.ToString(), " y=", y.ToString(), " x=", x.ToString(),
                      " tile_rc=", tile_rc, " unroll_window=", unroll_window,
                      " unroll_tile=", unroll_tile, "}");
}

int64_t GpuConv2dScheduleConfig::SharedBytes(const Window2d& window, int64_t kh, int64_t kw) const {
  const int64_t in_h = (y.Span() - 1) * window.stride_h + (kh - 1) * window.dilation_h + 1;
  const int64_t in_w = (x.Span() - 1) * window.stride_w + (kw - 1) * window.dilation_w + 1;
  return TileBytes({tile_rc, in_h, in_w}) + TileBytes({f.Span(), tile_rc, kh, kw});
}

GpuConv2dScheduleConfig DefaultGpuConv2dConfig(const Conv2dTensors& t) {
  const auto& axes = t.out.op()->axis;
  GpuConv2dScheduleConfig c;
  c.f = DefaultGpuAxisTile(AxisExtent(axes[1]), 4, 1);
  c.y = DefaultGpuAxisTile(AxisExtent(axes[2]), 4, 1);
  c.x = DefaultGpuAxisTile(AxisExtent(axes[3]), 8, 1);
  c.tile_rc = DefaultGpuStep(AxisExtent(t.out.op()->reduce_axis[0]), 4);
  return c;
}

absl::StatusOr<ScheduledOp> ScheduleGpuConv2d(const GpuConv2dScheduleConfig& config,
                                              const Conv2dTensors& t, const Window2d& window,
                                              const te::Tensor& output) {
  if (!config.f.Valid() || !config.y.Valid() || !config.x.Valid() || config.tile_rc <= 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("gpu conv2d schedule: non-positive field in ", config.ToString()));
  }
  const auto& r = t.out.op()->reduce_axis;  // rc, ry, rx
  const int64_t shared = config.SharedBytes(window, AxisExtent(r[1]), AxisExtent(r[2]));
  if (config.Threads() > kGpuMaxThreadsPerBlock || shared > kGpuMaxSharedBytes) {
    return absl::InvalidArgumentError(
        absl::StrCat("gpu conv2d schedule: ", config.Threads(), " threads and ", shared,
                     " shared bytes per block exceed the limits (", kGpuMaxThreadsPerBlock, ", ",
                     kGpuMaxSharedBytes, ") in ", config.ToString()));
  }
  if (config.f.threads > kGpuMaxBlockZ) {
    return absl::InvalidArgumentError(absl::StrCat("gpu conv2d schedule: ", config.f.threads,
                                                   " threads on z exceed CUDA's ", kGpuMaxBlockZ,
                                                   " in ", config.ToString()));
  }
  const auto& out_axes = t.out.op()->axis;
  const int64_t grid_z = AxisExtent(out_axes[0]) * config.f.Blocks(AxisExtent(out_axes[1]));
  const int64_t grid_y = config.y.Blocks(AxisExtent(out_axes[2]));
  if (grid_z > kGpuMaxGridYZ || grid_y > kGpuMaxGridYZ) {
    return absl::InvalidArgumentError(absl::StrCat("gpu conv2d schedule: a grid of ", grid_z, " x ",
                                                   grid_y, " blocks (z, y) exceeds 65535 in ",
                                                   config.ToString()));
  }
  const te::Tensor& result = output.defined() ? output : t.out;
  schedule::Schedule s = schedule::Schedule::Create({result.op()});
  if (!t.padded.same_as(t.data)) s[t.padded].compute_inline();
  absl::StatusOr<te::Tensor> ol = s.cache_write(t.out, "local");
  if (!ol.ok()) return ol.status();
  // The epilogue (and the copy cache_write left in t.out) run in each thread's registers, after
  // its tile's reduction and before the one store.
  if (!result.same_as(t.out)) {
    absl::Status inlined = InlineEpilogue(s, t.out, result, {}, "gpu conv2d");
    if (!inlined.ok()) return inlined;
  }
  absl::StatusOr<te::Tensor> as = s.cache_read(t.padded, "shared", {*ol});
  if (!as.ok()) return as.status();
  absl::StatusOr<te::Tensor> ws = s.cache_read(t.kernel, "shared", {*ol});
  if (!ws.ok()) return ws.status();

  schedule::Stage& out = s[result];
  const GpuNchwTiling tiling = TileGpuNchwOutput(out, config.f, config.y, config.x, "f");
  const GpuBlockThreads& threads = tiling.threads;
  const GpuAxisLoops& lx = tiling.x;

  // Each thread accumulates its register tile, tile_rc input channels per step.
  schedule::Stage& acc = s[*ol];
  acc.compute_at(out, lx.thread);
  const auto acc_axes = acc.op()->axis;
  const auto& ar = acc.op()->reduce_axis;
  ir::IterVar rci;
  ir::IterVar rco = SplitBy(acc, ar[0], config.tile_rc, &rci);
  acc.reorder({rco, rci, ar[1], ar[2], acc_axes[0], acc_axes[1], acc_axes[2], acc_axes[3]});
  if (config.unroll_window) {
    acc.unroll(ar[1]);
    acc.unroll(ar[2]);
  }
  if (config.unroll_tile) {
    for (int i = 1; i < 4; ++i) acc.unroll(acc_axes[i]);
  }

  // Per step, the block loads its input window and kernel slice into shared memory together.
  for (const te::Tensor& tile : {*as, *ws}) {
    schedule::Stage& st = s[tile];
    st.compute_at(acc, rco);
    CooperativeFetch(st, threads);
  }
  if (!s.error().ok()) return s.error();
  return ScheduledOp{s, {t.data, t.kernel, result}};
}

}  // namespace tunefarm::topi
