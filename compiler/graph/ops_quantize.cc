// Type inference of quantize and dequantize (ONNX QuantizeLinear, DequantizeLinear): the shape is
// x's; the dtype the zero point's (quantize) or float32 (dequantize).
#include <algorithm>

#include "absl/strings/str_cat.h"
#include "compiler/graph/op_inference.h"
#include "runtime/data_type.h"

namespace tunefarm::graph {
namespace {

bool IsQuantizedByte(const DLDataType& t) {
  return (t.code == kDLInt || t.code == kDLUInt) && t.bits == 8 && t.lanes == 1;
}

// scale and zero_point: one element, or one per index of the normalized axis of x.
absl::StatusOr<int> CheckQuantParameters(const InferContext& ctx) {
  absl::Status s = ExpectInputCount(ctx, 3, 3);
  if (!s.ok()) return s;
  const TensorType& x = ctx.inputs[0];
  absl::StatusOr<int64_t> axis = ctx.node.attrs.Int("axis", 1);
  if (!axis.ok()) return ctx.Annotate(axis.status());
  auto elements = [](const TensorType& p) { return p.rank() == 0 ? 1 : p.shape[0]; };
  // Per tensor, the axis is not used (ONNX's default of 1 may not even exist in x).
  if (ctx.inputs[1].rank() <= 1 && ctx.inputs[2].rank() <= 1 && elements(ctx.inputs[1]) == 1 &&
      elements(ctx.inputs[2]) == 1) {
    if (!runtime::SameDataType(ctx.inputs[1].dtype, DLDataType{kDLFloat, 32, 1})) {
      return ctx.Error("the scale " + ctx.inputs[1].ToString() + " must be float32");
    }
    return 0;
  }
  absl::StatusOr<int> a = NormalizeAxis(ctx, *axis, std::max(x.rank(), 1), "axis");
  if (!a.ok()) return a.status();
  if (!runtime::SameDataType(ctx.inputs[1].dtype, DLDataType{kDLFloat, 32, 1})) {
    return ctx.Error("the scale " + ctx.inputs[1].ToString() + " must be float32");
  }
  static constexpr const char* kNames[] = {"scale", "zero_point"};
  for (size_t i = 1; i < 3; ++i) {
    const TensorType& p = ctx.inputs[i];
    const int64_t n = elements(p);
    const bool per_axis = x.rank() > 0 && n == x.shape[*a];
    if (p.rank() > 1 || (n != 1 && !per_axis)) {
      return ctx.Error(absl::StrCat(kNames[i - 1], " ", p.ToString(), " must have one element or ",
                                    x.rank() > 0 ? absl::StrCat(x.shape[*a]) : std::string("1"),
                                    " (one per index of axis ", *a, " of ", x.ToString(), ")"));
    }
  }
  return *a;
}

}  // namespace

InferResult InferQuantize(const InferContext& ctx) {
  absl::StatusOr<int> axis = CheckQuantParameters(ctx);
  if (!axis.ok()) return axis.status();
  if (!runtime::SameDataType(ctx.inputs[0].dtype, DLDataType{kDLFloat, 32, 1})) {
    return ctx.Error("x " + ctx.inputs[0].ToString() + " must be float32");
  }
  const DLDataType out = ctx.inputs[2].dtype;
  if (!IsQuantizedByte(out)) {
    return ctx.Error("the zero point " + ctx.inputs[2].ToString() + " must be int8 or uint8");
  }
  return OneOutput(ctx, out, ctx.inputs[0].shape);
}

InferResult InferDequantize(const InferContext& ctx) {
  absl::StatusOr<int> axis = CheckQuantParameters(ctx);
  if (!axis.ok()) return axis.status();
  const DLDataType x = ctx.inputs[0].dtype;
  if (!IsQuantizedByte(x) && !runtime::SameDataType(x, DLDataType{kDLInt, 32, 1})) {
    return ctx.Error("x " + ctx.inputs[0].ToString() + " must be int8, uint8 or int32");
  }
  if (!runtime::SameDataType(ctx.inputs[2].dtype, x)) {
    return ctx.Error("the zero point " + ctx.inputs[2].ToString() + " must have x's dtype");
  }
  return OneOutput(ctx, DLDataType{kDLFloat, 32, 1}, ctx.inputs[0].shape);
}

}  // namespace tunefarm::graph
