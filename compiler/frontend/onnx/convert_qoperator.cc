// Converters of ONNX's QOperator ops as the QDQ graphs they mean: QLinearConv and QLinearMatMul
// become dequantize -> Conv/MatMul -> quantize (so the quantized passes run them as int8 kernels
// where their scheme fits, and in float as ONNX defines them elsewhere); DynamicQuantizeLinear
// becomes its reductions and a quantize. ConvInteger and MatMulInteger are their integer ops in
// int32: each operand widened and shifted by its zero point, then an int32 conv or matmul, whose
// sums are exact (ONNX's definition; a float op would round them past 2^24).
#include <optional>

#include "absl/strings/str_cat.h"
#include "compiler/frontend/onnx/converters.h"
#include "compiler/frontend/onnx/import_context.h"
#include "runtime/data_type.h"

namespace tunefarm::frontend::onnx {
namespace {

using graph::OpKind;

// quantize(`y`, input scale, input zero) as output 0 of `node`.
absl::Status QuantizeOutput(ImportContext& ctx, const NodeProto& node, graph::ValueId y, int scale,
                            int zero) {
  absl::StatusOr<graph::ValueId> s = ctx.Input(node, scale);
  absl::StatusOr<graph::ValueId> z = ctx.Input(node, zero);
  if (!s.ok()) return s.status();
  if (!z.ok()) return z.status();
  return ctx.Emit(node, OpKind::kQuantize, {{"axis", int64_t{1}}}, {y, *s, *z});
}

// A constant bias (int32 B at constant scales) as the float32 values its dequantize gives, so
// that the quantized_conv pass finds the constant bias it folds into its epilogue.
std::optional<runtime::NDArray> ConstantBias(ImportContext& ctx, const NodeProto& node) {
  if (!ctx.HasInput(node, 8)) return std::nullopt;
  const runtime::NDArray* b = ctx.ConstantInput(node, 8);
  const runtime::NDArray* sx = ctx.ConstantInput(node, 1);
  const runtime::NDArray* sw = ctx.ConstantInput(node, 4);
  const DLDataType i32{kDLInt, 32, 1}, f32{kDLFloat, 32, 1};
  if (b == nullptr || sx == nullptr || sw == nullptr || !runtime::SameDataType(b->dtype(), i32) ||
      !runtime::SameDataType(sx->dtype(), f32) || !runtime::SameDataType(sw->dtype(), f32) ||
      sx->NumElements() != 1 || (sw->NumElements() != 1 && sw->NumElements() != b->NumElements())) {
    return std::nullopt;
  }
  absl::StatusOr<runtime::NDArray> out = runtime::NDArray::Empty(b->shape(), f32);
  if (!out.ok()) return std::nullopt;
  const auto* bv = static_cast<const int32_t*>(b->data());
  const float x_scale = *static_cast<const float*>(sx->data());
  const auto* w_scale = static_cast<const float*>(sw->data());
  auto* o = static_cast<float*>(out->data());
  for (int64_t i = 0; i < b->NumElements(); ++i) {
    // As dequantize computes it: float32(B) times the float32 product of the scales.
    const float scale = x_scale * w_scale[sw->NumElements() == 1 ? 0 : i];
    o[i] = static_cast<float>(bv[i]) * scale;
  }
  return *std::move(out);
}

// x, x_scale, x_zero_point, w, w_scale, w_zero_point, y_scale, y_zero_point[, B]: B is int32 at
// scale x_scale * w_scale (per output channel where w's scale is).
absl::Status QLinearConv(ImportContext& ctx, const NodeProto& node) {
  absl::StatusOr<graph::Attributes> attrs = ConvAttributes(ctx, node, 3);
  if (!attrs.ok()) return attrs.status();
  absl::StatusOr<graph::ValueId> x = AddDequantize(ctx, node, 0, 1, 2, 1, "/x");
  if (!x.ok()) return x.status();
  absl::StatusOr<graph::ValueId> w = AddDequantize(ctx, node, 3, 4, 5, 0, "/w");
  if (!w.ok()) return w.status();
  std::vector<graph::ValueId> inputs = {*x, *w};
  if (std::optional<runtime::NDArray> bias = ConstantBias(ctx, node)) {
    inputs.push_back(
        ctx.graph().AddConstant(ImportContext::PartName(node, "/bias"), *std::move(bias)));
  } else if (ctx.HasInput(node, 8)) {
    absl::StatusOr<graph::ValueId> sx = ctx.Input(node, 1);
    absl::StatusOr<graph::ValueId> sw = ctx.Input(node, 4);
    absl::StatusOr<graph::ValueId> bias = ctx.Input(node, 8);
    for (const absl::Status& s : {sx.status(), sw.status(), bias.status()}) {
      if (!s.ok()) return s;
    }
    absl::StatusOr<graph::ValueId> scale =
        ctx.EmitInner(node, OpKind::kMul, "/b_scale", {}, {*sx, *sw});
    if (!scale.ok()) return scale.status();
    absl::StatusOr<graph::ValueId> zero =
        ctx.AddScalar(node, "/b/zero_point", DLDataType{kDLInt, 32, 1}, 0);
    if (!zero.ok()) return zero.status();
    absl::StatusOr<graph::ValueId> b = ctx.EmitInner(
        node, OpKind::kDequantize, "/b", {{"axis", int64_t{0}}}, {*bias, *scale, *zero});
    if (!b.ok()) return b.status();
    inputs.push_back(*b);
  }
  absl::StatusOr<graph::ValueId> y =
      ctx.EmitInner(node, OpKind::kConv2d, "/conv", *std::move(attrs), std::move(inputs));
  if (!y.ok()) return y.status();
  return QuantizeOutput(ctx, node, *y, 6, 7);
}

// a, a_scale, a_zero_point, b, b_scale, b_zero_point, y_scale, y_zero_point: a per tensor (or per
// row), b per tensor or per column.
absl::Status QLinearMatMul(ImportContext& ctx, const NodeProto& node) {
  absl::StatusOr<graph::TensorType> a_scale = ctx.InputType(node, 1);
  absl::StatusOr<graph::TensorType> b_scale = ctx.InputType(node, 4);
  if (!a_scale.ok()) return a_scale.status();
  if (!b_scale.ok()) return b_scale.status();
  absl::StatusOr<graph::ValueId> a =
      AddDequantize(ctx, node, 0, 1, 2, a_scale->NumElements().value_or(1) == 1 ? 0 : -2, "/a");
  if (!a.ok()) return a.status();
  absl::StatusOr<graph::ValueId> b = AddDequantize(ctx, node, 3, 4, 5, -1, "/b");
  if (!b.ok()) return b.status();
  absl::StatusOr<graph::ValueId> y = ctx.EmitInner(node, OpKind::kMatMul, "/matmul", {}, {*a, *b});
  if (!y.ok()) return y.status();
  return QuantizeOutput(ctx, node, *y, 6, 7);
}

// Input `i` (8-bit) widened to int32 less its zero point (input `zero`, absent: 0). A zero point
// of one element per row (`per_axis_from_end` 2: A's rows) or per output channel (the weight's
// axis 0, `per_axis_from_end` = rank) is shaped to broadcast along that axis.
absl::StatusOr<graph::ValueId> WidenedLessZeroPoint(ImportContext& ctx, const NodeProto& node,
                                                    int i, int zero, int per_axis_from_end,
                                                    const std::string& suffix) {
  absl::StatusOr<graph::TensorType> t = ctx.InputType(node, i);
  absl::StatusOr<graph::ValueId> v = ctx.Input(node, i);
  if (!t.ok()) return t.status();
  if (!v.ok()) return v.status();
  if ((t->dtype.code != kDLInt && t->dtype.code != kDLUInt) || t->dtype.bits != 8) {
    return ctx.Error(node,
                     "input " + std::to_string(i) + " must be int8 or uint8, not " + t->ToString());
  }
  const graph::Attributes to_int32{{"to", std::string("int32")}};
  absl::StatusOr<graph::ValueId> wide =
      ctx.EmitInner(node, OpKind::kCast, suffix + "/int32", to_int32, {*v});
  if (!wide.ok() || !ctx.HasInput(node, zero)) return wide;
  absl::StatusOr<graph::TensorType> zt = ctx.InputType(node, zero);
  absl::StatusOr<graph::ValueId> z = ctx.Input(node, zero);
  if (!zt.ok()) return zt.status();
  if (!z.ok()) return z.status();
  if (!runtime::SameDataType(zt->dtype, t->dtype)) {
    return ctx.Error(
        node, "the zero point " + zt->ToString() + " must have the type of " + t->ToString());
  }
  const int64_t count = zt->NumElements().value_or(1);
  graph::ValueId shift = *z;
  if (count != 1) {
    const int64_t axis = t->rank() - per_axis_from_end;
    if (zt->rank() != 1 || axis < 0 || t->shape[axis] != count) {
      return ctx.Error(node, "the zero point " + zt->ToString() + " is neither one value nor one " +
                                 "per element of axis " + std::to_string(axis) + " of " +
                                 t->ToString());
    }
    std::vector<int64_t> shape(static_cast<size_t>(t->rank() - axis), 1);
    shape[0] = count;
    absl::StatusOr<graph::ValueId> shaped = ctx.EmitInner(
        node, OpKind::kReshape, suffix + "/zero_point_axis", {{"shape", shape}}, {*z});
    if (!shaped.ok()) return shaped.status();
    shift = *shaped;
  }
  absl::StatusOr<graph::ValueId> wide_zero =
      ctx.EmitInner(node, OpKind::kCast, suffix + "/zero_point_int32", to_int32, {shift});
  if (!wide_zero.ok()) return wide_zero.status();
  return ctx.EmitInner(node, OpKind::kSub, suffix + "/shifted", {}, {*wide, *wide_zero});
}

// A, B, a_zero_point (per tensor or per row of A), b_zero_point (per tensor or per column of B).
absl::Status MatMulInteger(ImportContext& ctx, const NodeProto& node) {
  absl::StatusOr<graph::ValueId> a = WidenedLessZeroPoint(ctx, node, 0, 2, 2, "/a");
  if (!a.ok()) return a.status();
  absl::StatusOr<graph::ValueId> b = WidenedLessZeroPoint(ctx, node, 1, 3, 1, "/b");
  if (!b.ok()) return b.status();
  return ctx.Emit(node, OpKind::kMatMul, {}, {*a, *b});
}

// x, w, x_zero_point (per tensor), w_zero_point (per tensor or per output channel).
absl::Status ConvInteger(ImportContext& ctx, const NodeProto& node) {
  absl::StatusOr<graph::Attributes> attrs = ConvAttributes(ctx, node, 1);
  if (!attrs.ok()) return attrs.status();
  absl::StatusOr<graph::ValueId> x = WidenedLessZeroPoint(ctx, node, 0, 2, 4, "/x");
  if (!x.ok()) return x.status();
  absl::StatusOr<graph::ValueId> w = WidenedLessZeroPoint(ctx, node, 1, 3, 4, "/w");
  if (!w.ok()) return w.status();
  return ctx.Emit(node, OpKind::kConv2d, *std::move(attrs), {*x, *w});
}

// y = quantize(x) to uint8 with the scale and zero point of x's range widened to hold 0, as ONNX
// defines them: scale = (max(0, max x) - min(0, min x)) / 255, zero = clip(round(-min / scale)).
absl::Status DynamicQuantizeLinear(ImportContext& ctx, const NodeProto& node) {
  absl::StatusOr<graph::ValueId> x = ctx.Input(node, 0);
  if (!x.ok()) return x.status();
  const DLDataType f32{kDLFloat, 32, 1};
  absl::StatusOr<graph::ValueId> zero_or = ctx.AddScalar(node, "/zero", f32, 0);
  absl::StatusOr<graph::ValueId> levels = ctx.AddScalar(node, "/255", f32, 255);
  if (!zero_or.ok()) return zero_or.status();
  if (!levels.ok()) return levels.status();
  const graph::ValueId zero = *zero_or;
  auto op = [&](OpKind kind, const std::string& suffix, graph::Attributes attrs,
                std::vector<graph::ValueId> in) {
    return ctx.EmitInner(node, kind, suffix, std::move(attrs), std::move(in));
  };
  absl::StatusOr<graph::ValueId> lo =
      op(OpKind::kReduce, "/min", {{"fn", std::string("min")}, {"keep_dims", int64_t{0}}}, {*x});
  absl::StatusOr<graph::ValueId> hi =
      op(OpKind::kReduce, "/max", {{"fn", std::string("max")}, {"keep_dims", int64_t{0}}}, {*x});
  if (lo.ok()) lo = op(OpKind::kMinimum, "/min0", {}, {*lo, zero});
  if (hi.ok()) hi = op(OpKind::kMaximum, "/max0", {}, {*hi, zero});
  if (!lo.ok()) return lo.status();
  if (!hi.ok()) return hi.status();
  absl::StatusOr<graph::ValueId> range = op(OpKind::kSub, "/range", {}, {*hi, *lo});
  absl::StatusOr<graph::ValueId> scale =
      range.ok() ? op(OpKind::kDiv, "/scale", {}, {*range, *levels}) : range;
  if (!scale.ok()) return scale.status();
  absl::StatusOr<graph::ValueId> zp = op(OpKind::kDiv, "/lo_steps", {}, {*lo, *scale});
  if (zp.ok()) zp = op(OpKind::kSub, "/neg_lo_steps", {}, {zero, *zp});
  if (zp.ok()) zp = op(OpKind::kUnary, "/round", {{"fn", std::string("round")}}, {*zp});
  if (zp.ok()) zp = op(OpKind::kClip, "/clip", {{"min", 0.0}, {"max", 255.0}}, {*zp});
  if (zp.ok()) zp = op(OpKind::kCast, "/zero_point", {{"to", std::string("uint8")}}, {*zp});
  if (!zp.ok()) return zp.status();
  absl::StatusOr<graph::ValueId> y =
      op(OpKind::kQuantize, "/quantize", {{"axis", int64_t{1}}}, {*x, *scale, *zp});
  if (!y.ok()) return y.status();
  for (const auto& [i, v] : {std::pair{0, *y}, std::pair{1, *scale}, std::pair{2, *zp}}) {
    if (absl::Status s = ctx.DefineValue(node, i, v); !s.ok()) return s;
  }
  return absl::OkStatus();
}

constexpr OnnxConverter kQOperatorConverters[] = {
    {"QLinearConv", &QLinearConv, 10},
    {"QLinearMatMul", &QLinearMatMul, 10},
    {"DynamicQuantizeLinear", &DynamicQuantizeLinear, 11},
    {"MatMulInteger", &MatMulInteger, 10},
    {"ConvInteger", &ConvInteger, 10},
};

}  // namespace

std::span<const OnnxConverter> QOperatorConverters() { return kQOperatorConverters; }

}  // namespace tunefarm::frontend::onnx
