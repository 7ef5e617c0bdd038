#include "compiler/topi/gpu_depthwise_conv2d.h"

#include "absl/strings/str_cat.h"
#include "compiler/topi/epilogue.h"
#include "compiler/topi/gpu_common_knobs.h"
#include "compiler/topi/injective_schedule.h"

namespace tunefarm::topi {

std::string GpuDepthwiseConv2dScheduleConfig::ToString() const {
  return absl::StrCat("gpu_depthwise_conv2d{c=", c.ToString(), " y=", y.ToString(),
                      " x=", x.ToString(), " shared_input=", shared_input,
                      " unroll_window=", unroll_window, " unroll_tile=", unroll_tile, "}");
}

int64_t GpuDepthwiseConv2dScheduleConfig::SharedBytes(const Window2d& window, int64_t kh,
                                                      int64_t kw) const {
  if (!shared_input) return 0;
  const int64_t in_h = (y.Span() - 1) * window.stride_h + (kh - 1) * window.dilation_h + 1;
  const int64_t in_w = (x.Span() - 1) * window.stride_w + (kw - 1) * window.dilation_w + 1;
  return TileBytes({c.Span(), in_h, in_w});
}

GpuDepthwiseConv2dScheduleConfig DefaultGpuDepthwiseConv2dConfig(const DepthwiseConv2dTensors& t) {
  const auto& axes = t.out.op()->axis;
  GpuDepthwiseConv2dScheduleConfig c;
  c.c = DefaultGpuAxisTile(AxisExtent(axes[1]), 1, 1);
  c.y = DefaultGpuAxisTile(AxisExtent(axes[2]), 4, 1);
  c.x = DefaultGpuAxisTile(AxisExtent(axes[3]), 8, 1);
  return c;
}

absl::StatusOr<ScheduledOp> ScheduleGpuDepthwiseConv2d(
    const GpuDepthwiseConv2dScheduleConfig& config, const DepthwiseConv2dTensors& t,
    const Window2d& window, const te::Tensor& output) {
  if (!config.c.Valid() || !config.y.Valid() || !config.x.Valid()) {
    return absl::InvalidArgumentError(
        absl::StrCat("gpu depthwise_conv2d schedule: non-positive field in ", config.ToString()));
  }
  const auto& r = t.out.op()->reduce_axis;  // ry, rx
  const int64_t shared = config.SharedBytes(window, AxisExtent(r[0]), AxisExtent(r[1]));
  if (config.Threads() > kGpuMaxThreadsPerBlock || shared > kGpuMaxSharedBytes) {
    return absl::InvalidArgumentError(
        absl::StrCat("gpu depthwise_conv2d schedule: ", config.Threads(), " threads and ", shared,
                     " shared bytes per block exceed the limits (", kGpuMaxThreadsPerBlock, ", ",
                     kGpuMaxSharedBytes, ") in ", config.ToString()));
  }
  if (config.c.threads > kGpuMaxBlockZ) {
    return absl::InvalidArgumentError(
        absl::StrCat("gpu depthwise_conv2d schedule: ", config.c.threads,
                     " threads on z exceed CUDA's ", kGpuMaxBlockZ, " in ", config.ToString()));
  }
  const auto& out_axes = t.out.op()->axis;
  const int64_t grid_z = AxisExtent(out_axes[0]) * config.c.Blocks(AxisExtent(out_axes[1]));
  const int64_t grid_y = config.y.Blocks(AxisExtent(out_axes[2]));
  if (grid_z > kGpuMaxGridYZ || grid_y > kGpuMaxGridYZ) {
    return absl::InvalidArgumentError(
        absl::StrCat("gpu depthwise_conv2d schedule: a grid of ", grid_z, " x ", grid_y,
                     " blocks (z, y) exceeds 65535 in ", config.ToString()));
  }
  const te::Tensor& result = output.defined() ? output : t.out;
  schedule::Schedule s = schedule::Schedule::Create({result.op()});
  if (!t.padded.same_as(t.data)) s[t.padded].compute_inline();
  absl::StatusOr<te::Tensor> ol = s.cache_write(t.out, "local");
  if (!ol.ok()) return ol.status();
  // The epilogue (and the copy cache_write left in t.out) run in each thread's registers, after
  // its tile's reduction and before the one store.
  if (!result.same_as(t.out)) {
    absl::Status inlined = InlineEpilogue(s, t.out, result, {}, "gpu depthwise_conv2d");
    if (!inlined.ok()) return inlined;
  }
  te::Tensor input_tile;
  if (config.shared_input) {
    absl::StatusOr<te::Tensor> as = s.cache_read(t.padded, "shared", {*ol});
    if (!as.ok()) return as.status();
    input_tile = *as;
  }

  schedule::Stage& out = s[result];
  const GpuNchwTiling tiling = TileGpuNchwOutput(out, config.c, config.y, config.x, "c");
  const GpuBlockThreads& threads = tiling.threads;
  const GpuAxisLoops& lx = tiling.x;

  schedule::Stage& acc = s[*ol];
  acc.compute_at(out, lx.thread);
  const auto acc_axes = acc.op()->axis;
  const auto& ar = acc.op()->reduce_axis;
  acc.reorder({ar[0], ar[1], acc_axes[0], acc_axes[1], acc_axes[2], acc_axes[3]});
  if (config.unroll_window) {
    acc.unroll(ar[0]);
    acc.unroll(ar[1]);
  }
  if (config.unroll_tile) {
    for (int i = 1; i < 4; ++i) acc.unroll(acc_axes[i]);
  }
  // The whole window a block reads, loaded once by all its threads before any computes.
  if (config.shared_input) {
    schedule::Stage& st = s[input_tile];
    st.compute_at(out, lx.block);
    CooperativeFetch(st, threads);
  }
  if (!s.error().ok()) return s.error();
  return ScheduledOp{s, {t.data, t.kernel, result}};
}

}  // namespace tunefarm::topi
