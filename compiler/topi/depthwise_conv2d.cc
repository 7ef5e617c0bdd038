#include "compiler/topi/depthwise_conv2d.h"

#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/ir/op.h"
#include "compiler/topi/injective_schedule.h"
#include "compiler/topi/loop_tiling.h"
#include "compiler/topi/pad.h"
#include "compiler/topi/static_shape.h"

namespace tunefarm::topi {

absl::StatusOr<DepthwiseConv2dTensors> DepthwiseConv2dCompute(const te::Tensor& data,
                                                              const te::Tensor& kernel,
                                                              const Window2d& window) {
  const std::string op = "depthwise_conv2d";
  absl::StatusOr<std::vector<int64_t>> ds = StaticShape(op, data, 4);
  if (!ds.ok()) return ds.status();
  absl::StatusOr<std::vector<int64_t>> ks = StaticShape(op, kernel, 4);
  if (!ks.ok()) return ks.status();
  const std::string shapes =
      absl::StrCat("data ", ShapeString(*ds), ", kernel ", ShapeString(*ks), " (C, M, KH, KW)");
  const int64_t n = (*ds)[0], c = (*ds)[1], h = (*ds)[2], w = (*ds)[3];
  const int64_t mult = (*ks)[1], kh = (*ks)[2], kw = (*ks)[3];
  if ((*ks)[0] != c || data.dtype() != kernel.dtype()) {
    return absl::InvalidArgumentError(
        absl::StrCat(op, " (", shapes, "): the kernel needs one filter group per data channel (", c,
                     ") and the dtypes must agree"));
  }
  absl::StatusOr<WindowOutput> out = SlideWindow(op, shapes, window, h, w, kh, kw);
  if (!out.ok()) return out.status();
  DepthwiseConv2dTensors t{data, kernel, data, te::Tensor()};
  absl::StatusOr<te::Tensor> padded =
      PadCompute(data, {0, 0, window.pad_top, window.pad_left},
                 {0, 0, window.pad_bottom, window.pad_right}, ir::Expr(0.0f), "depthwise_pad");
  if (!padded.ok()) return padded.status();
  t.padded = *padded;
  ir::IterVar ry = te::reduce_axis({Imm(0), Imm(kh)}, "ry");
  ir::IterVar rx = te::reduce_axis({Imm(0), Imm(kw)}, "rx");
  auto body = [&](const std::vector<ir::Var>& i) {
    ir::Expr channel = mult == 1 ? ir::Expr(i[1]) : ir::FloorDiv(i[1], Imm(mult));
    ir::Expr filter = mult == 1 ? Imm(0) : ir::FloorMod(i[1], Imm(mult));
    ir::Expr y = i[2] * Imm(window.stride_h) + ry->var * Imm(window.dilation_h);
    ir::Expr x = i[3] * Imm(window.stride_w) + rx->var * Imm(window.dilation_w);
    return te::sum(t.padded({i[0], channel, y, x}) * kernel({channel, filter, ry->var, rx->var}),
                   {ry, rx});
  };
  absl::StatusOr<te::Tensor> result = te::compute({Imm(n), Imm(c * mult), Imm(out->h), Imm(out->w)},
                                                  body, op, {"n", "c", "oh", "ow"});
  if (!result.ok()) return result.status();
  t.out = *result;
  return t;
}

std::string DepthwiseConv2dScheduleConfig::ToString() const {
  return absl::StrCat("reg ", reg_w_vectors, "x", vector_lanes, " columns",
                      unroll_window ? ", unroll window" : "", pad_inline ? ", pad inline" : "",
                      parallel ? ", parallel" : "");
}

DepthwiseConv2dScheduleConfig DefaultDepthwiseConv2dConfig(const DepthwiseConv2dTensors& t,
                                                           const CpuInfo& cpu) {
  DepthwiseConv2dScheduleConfig c;
  c.vector_lanes = cpu.Lanes(4);
  // As many vectors of a row as divide it (up to 8): a ragged tile takes the scalar tail path,
  // which costs more here than the window's few FMAs per output.
  const int64_t ow = AxisExtent(t.out.op()->axis[3]);
  c.reg_w_vectors = ow % c.vector_lanes == 0 ? LargestDivisor(ow / c.vector_lanes, 8) : 1;
  c.parallel = cpu.cores > 1;
  return c;
}

absl::StatusOr<ScheduledOp> ScheduleDepthwiseConv2d(const DepthwiseConv2dScheduleConfig& config,
                                                    const DepthwiseConv2dTensors& t) {
  if (config.vector_lanes <= 0 || config.reg_w_vectors <= 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("depthwise_conv2d schedule: vector_lanes and reg_w_vectors must be positive (",
                     config.ToString(), ")"));
  }
  schedule::Schedule s = schedule::Schedule::Create({t.out.op()});
  SchedulePad(s, t.padded, t.data, config.pad_inline,
              InjectiveScheduleConfig{config.vector_lanes, 1, config.parallel});
  absl::StatusOr<te::Tensor> acc = s.cache_write(t.out, "local");
  if (!acc.ok()) return acc.status();

  schedule::Stage& out = s[t.out];
  const auto axes = out.op()->axis;  // n, c, oh, ow
  ir::IterVar wi;
  ir::IterVar wo = SplitBy(out, axes[3], config.vector_lanes * config.reg_w_vectors, &wi);
  SplitVectors(out, wi, config.vector_lanes);
  FuseOuter(out, {axes[0], axes[1], axes[2]}, config.parallel);

  schedule::Stage& a = s[*acc];
  a.compute_at(out, wo);
  const auto acc_axes = a.op()->axis;
  const auto& r = a.op()->reduce_axis;  // ry, rx
  auto [av, al] = SplitVectors(a, acc_axes[3], config.vector_lanes);
  Reorder(a, {acc_axes[0], acc_axes[1], acc_axes[2], r[0], r[1], av, al});
  if (config.unroll_window) a.unroll(r[0]).unroll(r[1]);
  if (!s.error().ok()) return s.error();
  return ScheduledOp{s, {t.data, t.kernel, t.out}};
}

}  // namespace tunefarm::topi
