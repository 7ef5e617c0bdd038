#include "compiler/topi/depthwise_conv2d_nchwc.h"

#include "absl/strings/str_cat.h"
#include "compiler/ir/op.h"
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

DepthwiseConv2dNchwcScheduleConfig DefaultDepthwiseConv2dNchwcConfig(
    const std::vector<int64_t>& data_shape, int64_t kh, int64_t kw, const Window2d& window,
    const CpuInfo& cpu, std::optional<int64_t> channel_block) {
  int64_t ow = 1;
  if (data_shape.size() == 4) {
    absl::StatusOr<WindowOutput> out =
        SlideWindow("depthwise_conv2d_nchwc", "", window, data_shape[2], data_shape[3], kh, kw);
    if (out.ok()) ow = out->w;
  }
  return DefaultBlockedWindowConfig(ow, cpu, channel_block);
}

absl::StatusOr<ScheduledOp> ScheduleDepthwiseConv2dNchwc(
    const DepthwiseConv2dNchwcScheduleConfig& config, const DepthwiseConv2dNchwcTensors& t,
    const te::Tensor& output) {
  const te::Tensor& result = output.defined() ? output : t.out;
  return ScheduleBlockedWindowReduction(
      config, {t.data, t.padded, t.out, result, {t.data, t.kernel, result}, t.channel_block},
      "depthwise_conv2d_nchwc");
}

}  // namespace tunefarm::topi
