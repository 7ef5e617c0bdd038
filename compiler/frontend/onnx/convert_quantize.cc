// Converters of ONNX's linear quantization: QuantizeLinear and DequantizeLinear (opset 10 per
// tensor; 13 per axis; 19 and 21's attributes where they keep int8/uint8 semantics). An absent
// zero point becomes a constant 0 (uint8, or output_dtype's, for QuantizeLinear; x's dtype for
// DequantizeLinear), so the graph ops always take three inputs.
#include <cstring>

#include "absl/strings/str_cat.h"
#include "compiler/frontend/onnx/converters.h"
#include "compiler/frontend/onnx/import_context.h"

namespace tunefarm::frontend::onnx {
namespace {

// TensorProto data types of the 8-bit integers.
constexpr int64_t kOnnxUint8 = 2, kOnnxInt8 = 3;

absl::StatusOr<graph::ValueId> ZeroPoint(ImportContext& ctx, const NodeProto& node,
                                         DLDataType dtype) {
  if (ctx.HasInput(node, 2)) return ctx.Input(node, 2);
  absl::StatusOr<runtime::NDArray> zero = runtime::NDArray::Empty({}, dtype);
  if (!zero.ok()) return zero.status();
  std::memset(zero->data(), 0, zero->NumBytes());
  return ctx.graph().AddConstant(ImportContext::PartName(node, "/zero_point"), *std::move(zero));
}

// The attributes both ops share: axis (from opset 13), and a block_size that must be 0.
absl::StatusOr<graph::Attributes> QuantAttributes(ImportContext& ctx, const NodeProto& node) {
  absl::StatusOr<int64_t> block = ctx.AttrInt(node, "block_size", 0);
  if (!block.ok()) return block.status();
  if (*block != 0) return ctx.Error(node, "blocked quantization (block_size > 0)");
  absl::StatusOr<int64_t> axis = ctx.AttrInt(node, "axis", 1);
  if (!axis.ok()) return axis.status();
  if (ctx.opset() < 13) {
    // Per tensor only: the scale must be a scalar, which makes any axis right.
    absl::StatusOr<graph::TensorType> scale = ctx.InputType(node, 1);
    if (!scale.ok()) return scale.status();
    if (scale->NumElements().value_or(0) != 1)
      return ctx.Error(node, "a per-axis scale before opset 13");
  }
  return graph::Attributes{{"axis", *axis}};
}

absl::Status QuantizeLinear(ImportContext& ctx, const NodeProto& node) {
  absl::StatusOr<graph::Attributes> attrs = QuantAttributes(ctx, node);
  if (!attrs.ok()) return attrs.status();
  absl::StatusOr<int64_t> output_dtype = ctx.AttrInt(node, "output_dtype", 0);
  if (!output_dtype.ok()) return output_dtype.status();
  DLDataType dtype{kDLUInt, 8, 1};
  if (*output_dtype == kOnnxInt8) {
    dtype = DLDataType{kDLInt, 8, 1};
  } else if (*output_dtype != 0 && *output_dtype != kOnnxUint8) {
    return ctx.Error(node, absl::StrCat("output_dtype ", *output_dtype,
                                        " (only int8 and uint8 quantization is supported)"));
  }
  absl::StatusOr<graph::ValueId> x = ctx.Input(node, 0);
  absl::StatusOr<graph::ValueId> scale = ctx.Input(node, 1);
  if (!x.ok()) return x.status();
  if (!scale.ok()) return scale.status();
  absl::StatusOr<graph::ValueId> zero = ZeroPoint(ctx, node, dtype);
  if (!zero.ok()) return zero.status();
  return ctx.Emit(node, graph::OpKind::kQuantize, *std::move(attrs), {*x, *scale, *zero});
}

absl::Status DequantizeLinear(ImportContext& ctx, const NodeProto& node) {
  absl::StatusOr<graph::Attributes> attrs = QuantAttributes(ctx, node);
  if (!attrs.ok()) return attrs.status();
  absl::StatusOr<graph::TensorType> x_type = ctx.InputType(node, 0);
  if (!x_type.ok()) return x_type.status();
  absl::StatusOr<graph::ValueId> x = ctx.Input(node, 0);
  absl::StatusOr<graph::ValueId> scale = ctx.Input(node, 1);
  if (!x.ok()) return x.status();
  if (!scale.ok()) return scale.status();
  absl::StatusOr<graph::ValueId> zero = ZeroPoint(ctx, node, x_type->dtype);
  if (!zero.ok()) return zero.status();
  return ctx.Emit(node, graph::OpKind::kDequantize, *std::move(attrs), {*x, *scale, *zero});
}

}  // namespace

absl::StatusOr<graph::ValueId> AddDequantize(ImportContext& ctx, const NodeProto& node, int x,
                                             int scale, int zero, int64_t axis,
                                             const std::string& suffix) {
  absl::StatusOr<graph::TensorType> x_type = ctx.InputType(node, x);
  if (!x_type.ok()) return x_type.status();
  absl::StatusOr<graph::ValueId> xv = ctx.Input(node, x);
  absl::StatusOr<graph::ValueId> sv = ctx.Input(node, scale);
  if (!xv.ok()) return xv.status();
  if (!sv.ok()) return sv.status();
  absl::StatusOr<graph::ValueId> zv = ctx.HasInput(node, zero) ? ctx.Input(node, zero) : [&]() {
    absl::StatusOr<runtime::NDArray> z = runtime::NDArray::Empty({}, x_type->dtype);
    if (!z.ok()) return absl::StatusOr<graph::ValueId>(z.status());
    std::memset(z->data(), 0, z->NumBytes());
    return absl::StatusOr<graph::ValueId>(ctx.graph().AddConstant(
        ImportContext::PartName(node, suffix + "/zero_point"), *std::move(z)));
  }();
  if (!zv.ok()) return zv.status();
  absl::StatusOr<std::vector<graph::ValueId>> out =
      ctx.graph().AddOp(graph::OpKind::kDequantize, ImportContext::PartName(node, suffix),
                        {{"axis", axis}}, {*xv, *sv, *zv});
  if (!out.ok()) return ctx.Error(node, std::string(out.status().message()));
  return (*out)[0];
}

namespace {

constexpr OnnxConverter kQuantizeConverters[] = {
    {"QuantizeLinear", &QuantizeLinear, 10},
    {"DequantizeLinear", &DequantizeLinear, 10},
};

}  // namespace

std::span<const OnnxConverter> QuantizeConverters() { return kQuantizeConverters; }

}  // namespace tunefarm::frontend::onnx
