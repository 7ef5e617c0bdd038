#include "compiler/topi/depthwise_conv2d.h"

#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/ir/op.h"
#include "compiler/topi/pad.h"
#include "compiler/topi/static_shape.h"

namespace tunefarm::topi {

absl::StatusOr<DepthwiseConv2dTensors> DepthwiseConv2dCompute(const te::Tensor& data,
                                                              const te::Tensor& kernel,
                                                              const Window2d& window,
                                                              const VectorRows& rows) {
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
  const int64_t out_w = rows.RoundUp(out->w);
  absl::StatusOr<PaddedRows> padded =
      PaddedRows::Make(data, window, h, w, kw, out_w, rows, "depthwise_pad");
  if (!padded.ok()) return padded.status();
  DepthwiseConv2dTensors t{data, kernel, padded->tensor(), te::Tensor(), te::Tensor()};
  ir::IterVar ry = te::reduce_axis({Imm(0), Imm(kh)}, "ry");
  ir::IterVar rx = te::reduce_axis({Imm(0), Imm(kw)}, "rx");
  auto body = [&](const std::vector<ir::Var>& i) {
    ir::Expr channel = mult == 1 ? ir::Expr(i[1]) : ir::FloorDiv(i[1], Imm(mult));
    ir::Expr filter = mult == 1 ? Imm(0) : ir::FloorMod(i[1], Imm(mult));
    ir::Expr y = i[2] * Imm(window.stride_h) + ry->var * Imm(window.dilation_h);
    return te::sum(
        padded->Read(i[0], channel, y, i[3], rx->var) * kernel({channel, filter, ry->var, rx->var}),
        {ry, rx});
  };
  absl::StatusOr<te::Tensor> result = te::compute({Imm(n), Imm(c * mult), Imm(out->h), Imm(out_w)},
                                                  body, op, {"n", "c", "oh", "ow"});
  if (!result.ok()) return result.status();
  t.out = *result;
  absl::StatusOr<te::Tensor> cropped = CropWidth(t.out, out->w, "depthwise_crop");
  if (!cropped.ok()) return cropped.status();
  t.cropped = *cropped;
  return t;
}

DepthwiseConv2dScheduleConfig DefaultDepthwiseConv2dConfig(const DepthwiseConv2dTensors& t,
                                                           const CpuInfo& cpu) {
  return DefaultWindowConfig(t.out, cpu, /*max_vectors=*/8);
}

absl::StatusOr<ScheduledOp> ScheduleDepthwiseConv2d(const DepthwiseConv2dScheduleConfig& config,
                                                    const DepthwiseConv2dTensors& t,
                                                    const te::Tensor& output) {
  // Without an epilogue the output is the true width (`cropped`).
  const te::Tensor& result = output.defined() ? output : t.cropped;
  return ScheduleWindowReduction(
      config, {t.data, t.padded, t.out, result, {t.data, t.kernel, result}}, "depthwise_conv2d");
}

}  // namespace tunefarm::topi
