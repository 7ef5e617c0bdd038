#include "compiler/topi/depthwise_conv2d_nchwc.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "compiler/ir/op.h"
#include "compiler/topi/epilogue.h"
#include "compiler/topi/injective_schedule.h"
#include "compiler/topi/loop_tiling.h"
#include "compiler/topi/pad.h"
#include "compiler/topi/static_shape.h"

namespace tunefarm::topi {

absl::StatusOr<DepthwiseConv2dNchwcTensors> DepthwiseConv2dNchwcCompute(const te::Tensor& data,
                                                                        const te::Tensor& kernel,
                                                                        const Window2d& window) {
  const std::string op = "depthwise_conv2d_nchwc";
  absl::StatusOr<std::vector<int64_t>> ds = StaticShape(op, data, 5);
  if (!ds.ok()) return ds.status();
  absl::StatusOr<std::vector<int64_t>> ks = StaticShape(op, kernel, 4);
  if (!ks.ok()) return ks.status();
  const std::string shapes = absl::StrCat("data ", ShapeString(*ds), " (NCHWc), kernel ",
                                          ShapeString(*ks), " (C/c, KH, KW, c)");
  const int64_t n = (*ds)[0], cb = (*ds)[1], h = (*ds)[2], w = (*ds)[3], c = (*ds)[4];
  const int64_t kh = (*ks)[1], kw = (*ks)[2];
  if ((*ks)[0] != cb || (*ks)[3] != c || data.dtype() != kernel.dtype()) {
    return absl::InvalidArgumentError(
        absl::StrCat(op, " (", shapes, "): the kernel needs the data's channel blocks (", cb,
                     " blocks of ", c, ") and the dtypes must agree"));
  }
  absl::StatusOr<WindowOutput> out = SlideWindow(op, shapes, window, h, w, kh, kw);
  if (!out.ok()) return out.status();
  DepthwiseConv2dNchwcTensors t{data, kernel, data, te::Tensor(), c};
  absl::StatusOr<te::Tensor> padded =
      PadWindowCompute(data, window, ir::Expr(0.0f), "depthwise_pad");
  if (!padded.ok()) return padded.status();
  t.padded = *padded;
  ir::IterVar ry = te::reduce_axis({Imm(0), Imm(kh)}, "ry");
  ir::IterVar rx = te::reduce_axis({Imm(0), Imm(kw)}, "rx");
  auto body = [&](const std::vector<ir::Var>& i) {
    ir::Expr y = i[2] * Imm(window.stride_h) + ry->var * Imm(window.dilation_h);
    ir::Expr x = i[3] * Imm(window.stride_w) + rx->var * Imm(window.dilation_w);
    return te::sum(t.padded({i[0], i[1], y, x, i[4]}) * kernel({i[1], ry->var, rx->var, i[4]}),
                   {ry, rx});
  };
  absl::StatusOr<te::Tensor> result = te::compute(
      {Imm(n), Imm(cb), Imm(out->h), Imm(out->w), Imm(c)}, body, op, {"n", "cb", "oh", "ow", "c"});
  if (!result.ok()) return result.status();
  t.out = *result;
  return t;
}

std::string DepthwiseConv2dNchwcScheduleConfig::ToString() const {
  return absl::StrCat("channel block ", channel_block, ", reg ", reg_w, " columns x ",
                      channel_block / std::max<int64_t>(vector_lanes, 1), "x", vector_lanes,
                      " lanes", unroll_window ? ", unroll window" : "",
                      pad_inline ? ", pad inline" : "", parallel ? ", parallel" : "");
}

DepthwiseConv2dNchwcScheduleConfig DefaultDepthwiseConv2dNchwcConfig(
    const std::vector<int64_t>& data_shape, int64_t kh, int64_t kw, const Window2d& window,
    const CpuInfo& cpu, std::optional<int64_t> channel_block) {
  DepthwiseConv2dNchwcScheduleConfig c;
  c.vector_lanes = cpu.Lanes(4);
  // One vector of channels: 10-40 % faster than two on an AMD EPYC (MobileNet 3x3 layers),
  // since each (window tap, column) step is one FMA either way and a narrower block makes a
  // longer register tile of columns possible.
  c.channel_block = channel_block.value_or(c.vector_lanes);
  const int64_t vectors = std::max<int64_t>(1, c.channel_block / c.vector_lanes);
  // Accumulators, the kernel vectors of one window position and one input vector must fit.
  const int64_t max_w = std::max<int64_t>(1, (cpu.vector_registers - vectors - 1) / vectors);
  int64_t ow = 1;
  if (data_shape.size() == 4) {
    absl::StatusOr<WindowOutput> out =
        SlideWindow("depthwise_conv2d_nchwc", "", window, data_shape[2], data_shape[3], kh, kw);
    if (out.ok()) ow = out->w;
  }
  c.reg_w = LargestDivisor(ow, std::min<int64_t>(max_w, 8));
  if (c.reg_w < 4) c.reg_w = std::min<int64_t>({ow, max_w, 4});
  // A depthwise window does 9 multiply-adds per output: a padded copy of the input costs about
  // as much as the conv itself, so read through a bounds check instead (1.6-3.5x measured on an
  // AMD EPYC at 3x3, stride 1 and 2).
  c.pad_inline = true;
  c.parallel = cpu.cores > 1;
  return c;
}

absl::StatusOr<ScheduledOp> ScheduleDepthwiseConv2dNchwc(
    const DepthwiseConv2dNchwcScheduleConfig& config, const DepthwiseConv2dNchwcTensors& t,
    const te::Tensor& output) {
  if (config.vector_lanes <= 0 || config.reg_w <= 0 || config.channel_block <= 0 ||
      config.channel_block % config.vector_lanes != 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "depthwise_conv2d_nchwc schedule: vector_lanes and reg_w must be positive and the "
        "channel block whole vectors (",
        config.ToString(), ")"));
  }
  if (config.channel_block != t.channel_block) {
    return absl::FailedPreconditionError(
        absl::StrCat("depthwise_conv2d_nchwc schedule: the tensors have channel block ",
                     t.channel_block, " but the config asks for ", config.channel_block,
                     "; transform the layouts with the config's block"));
  }
  const te::Tensor& result = output.defined() ? output : t.out;
  schedule::Schedule s = schedule::Schedule::Create({result.op()});
  SchedulePad(s, t.padded, t.data, config.pad_inline,
              InjectiveScheduleConfig{config.vector_lanes, 1, config.parallel});
  absl::StatusOr<te::Tensor> acc = s.cache_write(t.out, "local");
  if (!acc.ok()) return acc.status();
  if (!result.same_as(t.out)) {
    absl::Status inlined = InlineEpilogue(s, t.out, result, {t.padded}, "depthwise_conv2d_nchwc");
    if (!inlined.ok()) return inlined;
  }

  schedule::Stage& out = s[result];
  const auto axes = out.op()->axis;  // n, cb, oh, ow, c
  ir::IterVar wi;
  ir::IterVar wo = SplitBy(out, axes[3], config.reg_w, &wi);
  auto [cv, cl] = SplitVectors(out, axes[4], config.vector_lanes);
  Reorder(out, {axes[0], axes[1], axes[2], wo, wi, cv, cl});
  out.unroll(wi);
  FuseOuter(out, {axes[0], axes[1], axes[2]}, config.parallel);

  schedule::Stage& a = s[*acc];
  a.compute_at(out, wo);
  const auto acc_axes = a.op()->axis;
  const auto& r = a.op()->reduce_axis;  // ry, rx
  auto [av, al] = SplitVectors(a, acc_axes[4], config.vector_lanes);
  Reorder(a, {acc_axes[0], acc_axes[1], acc_axes[2], r[0], r[1], acc_axes[3], av, al});
  a.unroll(acc_axes[3]);
  if (config.unroll_window) a.unroll(r[0]).unroll(r[1]);
  if (!s.error().ok()) return s.error();
  return ScheduledOp{s, {t.data, t.kernel, result}};
}

}  // namespace tunefarm::topi
