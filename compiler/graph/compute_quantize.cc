// Computes of quantize and dequantize (topi/quantize.h) and of the int8 products with their
// dequantizing epilogues: dense_int8 (topi/dense_int8.h), conv2d_int8 over NCHW (a plain
// reduction) and blocked (topi/conv2d_int8.h).
#include "compiler/graph/op_compute_impl.h"
#include "compiler/ir/op.h"
#include "compiler/topi/conv2d_int8.h"
#include "compiler/topi/dense_int8.h"
#include "compiler/topi/pad.h"
#include "compiler/topi/quantize.h"

namespace tunefarm::graph {
namespace {

// The normalized axis (per-tensor parameters ignore it).
absl::StatusOr<int> QuantAxis(const ComputeContext& ctx) {
  absl::StatusOr<int64_t> axis = IntAttr(ctx, "axis", 1);
  if (!axis.ok()) return axis.status();
  return NormalizedAxis(*axis, std::max(ctx.input_types[0].rank(), 1));
}

// float32((acc[i] - zero * w_sum[c]) * scale[c] + bias[c]), c = channel(i): an int8 product's
// dequantized result.
absl::StatusOr<te::Tensor> Dequantized(
    const te::Tensor& acc, int64_t zero, const ComputeContext& ctx,
    const std::function<std::vector<ir::Expr>(const std::vector<ir::Var>&)>& channel,
    const std::string& name) {
  const te::Tensor &sum = ctx.inputs[2], &scale = ctx.inputs[3], &bias = ctx.inputs[4];
  const ir::Expr zp = ir::IntImm(ir::DataType::Int(32), zero);
  return te::compute(
      acc.shape(),
      [&](const std::vector<ir::Var>& i) {
        const std::vector<ir::Expr> c = channel(i);
        ir::Expr v = acc(std::vector<ir::Expr>(i.begin(), i.end())) - zp * sum(c);
        return ir::Cast(ir::DataType::Float(32), v) * scale(c) + bias(c);
      },
      name);
}

}  // namespace

ComputeResult ComputeQuantize(const ComputeContext& ctx) {
  absl::StatusOr<int> axis = QuantAxis(ctx);
  if (!axis.ok()) return axis.status();
  return One(ctx, topi::QuantizeCompute(ctx.inputs[0], ctx.inputs[1], ctx.inputs[2], *axis));
}

ComputeResult ComputeDequantize(const ComputeContext& ctx) {
  absl::StatusOr<int> axis = QuantAxis(ctx);
  if (!axis.ok()) return axis.status();
  return One(ctx, topi::DequantizeCompute(ctx.inputs[0], ctx.inputs[1], ctx.inputs[2], *axis));
}

// The int8 product, then its dequantizing epilogue: the dense_int8 template tiles them as one.
ComputeResult ComputeDenseInt8(const ComputeContext& ctx) {
  absl::StatusOr<int64_t> zero = IntAttr(ctx, "x_zero_point", 0);
  if (!zero.ok()) return zero.status();
  const std::optional<int64_t> n = ir::AsConstInt(ctx.inputs[2].shape()[0]);
  if (!n) return ctx.Error("w_sum's length must be constant");
  absl::StatusOr<topi::DenseInt8Tensors> t =
      topi::DenseInt8Compute(ctx.inputs[0], ctx.inputs[1], *n);
  if (!t.ok()) return ctx.Annotate(t.status());
  absl::StatusOr<te::Tensor> out = Dequantized(
      t->c, *zero, ctx, [](const std::vector<ir::Var>& i) { return std::vector<ir::Expr>{i[1]}; },
      "dense_int8_dequantized");
  ComputeResult result = One(ctx, out, {t->blocked, t->c});
  if (result.ok() && ctx.options.whole_vector_rows) {
    result->anchor.kind = AnchorTemplate::kDenseInt8;
    result->anchor.dense_int8 = *t;
    result->anchor.reduced = t->c;
    result->anchor.out = *out;
  }
  return result;
}

// The reference form: every product of the window in one int32 reduction, padding the zero point.
ComputeResult ComputeConv2dInt8(const ComputeContext& ctx) {
  absl::StatusOr<int64_t> zero = IntAttr(ctx, "x_zero_point", 0);
  if (!zero.ok()) return zero.status();
  absl::StatusOr<topi::Window2d> window = ReadTopiWindow(ctx);
  if (!window.ok()) return window.status();
  const te::Tensor &x = ctx.inputs[0], &w = ctx.inputs[1];
  const std::vector<int64_t>& ws = ctx.input_types[1].shape;
  const std::vector<int64_t>& out_shape = ctx.output_types[0].shape;
  absl::StatusOr<te::Tensor> padded = topi::PadWindowCompute(
      x, *window, ir::IntImm(ir::DataType::UInt(8), *zero), "conv2d_int8_pad");
  if (!padded.ok()) return ctx.Annotate(padded.status());
  auto i32 = [](int64_t v) { return ir::Expr(static_cast<int>(v)); };
  ir::IterVar rc = te::reduce_axis(ir::Range{0, i32(ws[1])}, "rc");
  ir::IterVar ry = te::reduce_axis(ir::Range{0, i32(ws[2])}, "ry");
  ir::IterVar rx = te::reduce_axis(ir::Range{0, i32(ws[3])}, "rx");
  const ir::DataType i32t = ir::DataType::Int(32);
  std::vector<ir::Expr> shape;
  for (int64_t d : out_shape) shape.push_back(i32(d));
  absl::StatusOr<te::Tensor> acc = te::compute(
      shape,
      [&](const std::vector<ir::Var>& i) {
        ir::Expr y = i[2] * i32(window->stride_h) + ry->var * i32(window->dilation_h);
        ir::Expr xx = i[3] * i32(window->stride_w) + rx->var * i32(window->dilation_w);
        ir::Expr a = ir::Cast(i32t, (*padded)({i[0], rc->var, y, xx}));
        return te::sum(a * ir::Cast(i32t, w({i[1], rc->var, ry->var, rx->var})), {rc, ry, rx});
      },
      "conv2d_int8");
  if (!acc.ok()) return ctx.Annotate(acc.status());
  return One(ctx,
             Dequantized(
                 *acc, *zero, ctx,
                 [](const std::vector<ir::Var>& i) { return std::vector<ir::Expr>{i[1]}; },
                 "conv2d_int8_dequantized"),
             {*padded, *acc});
}

// The blocked form: topi's template, whose register tiles apply the epilogue before their store.
ComputeResult ComputeConv2dInt8Nchwc(const ComputeContext& ctx) {
  absl::StatusOr<int64_t> zero = IntAttr(ctx, "x_zero_point", 0);
  if (!zero.ok()) return zero.status();
  absl::StatusOr<topi::Window2d> window = ReadTopiWindow(ctx);
  if (!window.ok()) return window.status();
  absl::StatusOr<topi::Conv2dInt8Tensors> t =
      topi::Conv2dInt8Compute(ctx.inputs[0], ctx.inputs[1], *window, *zero);
  if (!t.ok()) return ctx.Annotate(t.status());
  absl::StatusOr<te::Tensor> out = Dequantized(
      t->out, *zero, ctx,
      [](const std::vector<ir::Var>& i) {
        return std::vector<ir::Expr>{i[1], i[4]};
      },
      "conv2d_int8_dequantized");
  ComputeResult result = One(ctx, out, {t->padded, t->out});
  if (result.ok()) {
    result->anchor.kind = AnchorTemplate::kConv2dInt8;
    result->anchor.data = t->data;
    result->anchor.weight = t->kernel;
    result->anchor.padded = t->padded;
    result->anchor.reduced = t->out;
    result->anchor.out = *out;
    result->anchor.window = *window;
    result->anchor.conv2d_int8 = *t;
  }
  return result;
}

}  // namespace tunefarm::graph
