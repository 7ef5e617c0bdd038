// Converters of the ONNX neural-network ops: Conv, Gemm, MatMul, BatchNormalization, the pools,
// Softmax, LogSoftmax and LRN. 2-D (NCHW) convolutions and pools, and 1-D ones as 2-D.
#include <algorithm>
#include <optional>

#include "absl/strings/str_cat.h"
#include "compiler/frontend/onnx/converters.h"

namespace tunefarm::frontend::onnx {
namespace {

using graph::Attributes;
using graph::OpKind;
using Ints = std::vector<int64_t>;

// An error unless input 0 is NCHW (2-D spatial); returns its H and W.
absl::StatusOr<Ints> SpatialSize(ImportContext& ctx, const NodeProto& node) {
  absl::StatusOr<graph::TensorType> x = ctx.InputType(node, 0);
  if (!x.ok()) return x.status();
  if (x->rank() != 4) {
    return absl::UnimplementedError(absl::StrCat(node.op_type(), " node '", node.name(),
                                                 "': only 2-D (NCHW) inputs are supported, got ",
                                                 x->ToString()));
  }
  return Ints{x->shape[2], x->shape[3]};
}

// The window attributes (kernel, strides, pads, dilations) in graph form, with auto_pad resolved
// against the input size.
absl::Status ReadWindow(ImportContext& ctx, const NodeProto& node, const Ints& kernel,
                        const Ints& in, bool dilations, Attributes& attrs) {
  absl::StatusOr<Ints> strides = ctx.AttrInts(node, "strides", {1, 1});
  absl::StatusOr<Ints> dil = ctx.AttrInts(node, "dilations", {1, 1});
  absl::StatusOr<Ints> pads = ctx.AttrInts(node, "pads", {0, 0, 0, 0});
  absl::StatusOr<std::string> auto_pad = ctx.AttrString(node, "auto_pad", "NOTSET");
  for (const absl::Status& s : {strides.status(), dil.status(), pads.status(), auto_pad.status()}) {
    if (!s.ok()) return s;
  }
  if (strides->size() != 2 || dil->size() != 2) {
    return ctx.Error(node, "strides and dilations must have 2 values");
  }
  if (*auto_pad == "SAME_UPPER" || *auto_pad == "SAME_LOWER") {
    pads->assign(4, 0);
    for (int d = 0; d < 2; ++d) {
      int64_t s = (*strides)[d];
      if (s < 1 || s > graph::kMaxElements || (*dil)[d] < 1 || (*dil)[d] > graph::kMaxElements ||
          kernel[d] < 1 || kernel[d] > graph::kMaxElements) {
        return ctx.Error(node, "kernel, strides and dilations must be positive");
      }
      int64_t out = (in[d] + s - 1) / s;
      int64_t extent;
      if (__builtin_mul_overflow(kernel[d] - 1, (*dil)[d], &extent)) {
        return ctx.Error(node, "dilated kernel is too large");
      }
      int64_t total = std::max<int64_t>(0, (out - 1) * s + extent + 1 - in[d]);
      int64_t small = total / 2, large = total - small;
      (*pads)[d] = *auto_pad == "SAME_UPPER" ? small : large;
      (*pads)[d + 2] = *auto_pad == "SAME_UPPER" ? large : small;
    }
  } else if (*auto_pad == "VALID") {
    pads->assign(4, 0);
  } else if (*auto_pad != "NOTSET") {
    return ctx.Error(node, "unknown auto_pad '" + *auto_pad + "'");
  }
  attrs.Set("strides", *strides);
  attrs.Set("pads", *pads);
  if (dilations) attrs.Set("dilations", *dil);
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<Attributes> ConvAttributes(ImportContext& ctx, const NodeProto& node,
                                          int weight_input) {
  absl::StatusOr<Ints> hw = SpatialSize(ctx, node);
  if (!hw.ok()) return hw.status();
  absl::StatusOr<graph::TensorType> w = ctx.InputType(node, weight_input);
  if (!w.ok()) return w.status();
  if (w->rank() != 4) return ctx.Error(node, "weight must have rank 4, got " + w->ToString());
  Ints kernel(w->shape.begin() + 2, w->shape.end());
  absl::StatusOr<Ints> kernel_attr = ctx.AttrInts(node, "kernel_shape", kernel);
  if (!kernel_attr.ok()) return kernel_attr.status();
  if (*kernel_attr != kernel) return ctx.Error(node, "kernel_shape does not match the weight");
  absl::StatusOr<int64_t> group = ctx.AttrInt(node, "group", 1);
  if (!group.ok()) return group.status();
  Attributes attrs{{"groups", *group}};
  absl::Status s = ReadWindow(ctx, node, kernel, *hw, true, attrs);
  if (!s.ok()) return s;
  return attrs;
}

namespace {

absl::Status Conv(ImportContext& ctx, const NodeProto& node) {
  absl::StatusOr<Attributes> attrs = ConvAttributes(ctx, node, 1);
  if (!attrs.ok()) return attrs.status();
  std::vector<graph::ValueId> inputs;
  for (int i = 0; i < 3; ++i) {
    if (i == 2 && !ctx.HasInput(node, 2)) break;
    absl::StatusOr<graph::ValueId> v = ctx.Input(node, i);
    if (!v.ok()) return v.status();
    inputs.push_back(*v);
  }
  return ctx.Emit(node, OpKind::kConv2d, *std::move(attrs), std::move(inputs));
}

absl::Status Pool(ImportContext& ctx, const NodeProto& node, OpKind op) {
  absl::StatusOr<Ints> hw = SpatialSize(ctx, node);
  if (!hw.ok()) return hw.status();
  absl::StatusOr<Ints> kernel = ctx.AttrInts(node, "kernel_shape", {});
  if (!kernel.ok()) return kernel.status();
  if (kernel->size() != 2) return ctx.Error(node, "kernel_shape must have 2 values");
  absl::StatusOr<int64_t> ceil_mode = ctx.AttrInt(node, "ceil_mode", 0);
  if (!ceil_mode.ok()) return ceil_mode.status();
  Attributes attrs{{"kernel", *kernel}, {"ceil_mode", *ceil_mode}};
  if (op == OpKind::kAvgPool2d) {
    absl::StatusOr<int64_t> count_pad = ctx.AttrInt(node, "count_include_pad", 0);
    if (!count_pad.ok()) return count_pad.status();
    attrs.Set("count_include_pad", *count_pad);
  }
  absl::Status s = ReadWindow(ctx, node, *kernel, *hw, op == OpKind::kMaxPool2d, attrs);
  if (!s.ok()) return s;
  absl::StatusOr<graph::ValueId> x = ctx.Input(node, 0);
  if (!x.ok()) return x.status();
  return ctx.Emit(node, op, std::move(attrs), {*x});
}

template <OpKind kOp>
absl::Status GlobalPool(ImportContext& ctx, const NodeProto& node) {
  absl::StatusOr<Ints> hw = SpatialSize(ctx, node);
  if (!hw.ok()) return hw.status();
  absl::StatusOr<graph::ValueId> x = ctx.Input(node, 0);
  if (!x.ok()) return x.status();
  return ctx.Emit(node, kOp, {}, {*x});
}

// A 1-D convolution or pool ([N, C, L]) as the 2-D one over [N, C, 1, L]: its window attributes
// get a leading 1 (pads a 0 before each side), its data and weight a height of 1, and its output
// loses it again.
absl::Status ConvertAs2d(ImportContext& ctx, const NodeProto& node,
                         absl::Status (*convert)(ImportContext&, const NodeProto&)) {
  NodeProto lifted = node;
  lifted.clear_attribute();
  for (const ::onnx::AttributeProto& a : node.attribute()) {
    ::onnx::AttributeProto* b = lifted.add_attribute();
    *b = a;
    if (a.name() == "kernel_shape" || a.name() == "strides" || a.name() == "dilations") {
      if (a.ints_size() != 1) return ctx.Error(node, a.name() + " must have 1 value");
      b->clear_ints();
      b->add_ints(1);
      b->add_ints(a.ints(0));
    } else if (a.name() == "pads") {
      if (a.ints_size() != 2) return ctx.Error(node, "pads must have 2 values");
      b->clear_ints();
      for (int64_t v : {int64_t{0}, a.ints(0), int64_t{0}, a.ints(1)}) b->add_ints(v);
    }
  }
  // The data and a convolution's weight, with a height of 1.
  for (int i = 0; i < std::min(node.input_size(), 2); ++i) {
    absl::StatusOr<graph::TensorType> t = ctx.InputType(node, i);
    if (!t.ok()) return t.status();
    if (t->rank() != 3) return ctx.Error(node, "input " + std::to_string(i) + " must have rank 3");
    absl::StatusOr<graph::ValueId> v = ctx.Input(node, i);
    if (!v.ok()) return v.status();
    const std::string name = node.input(i) + "/as_2d/" + node.output(0);
    absl::StatusOr<std::vector<graph::ValueId>> r =
        ctx.graph().AddOp(OpKind::kUnsqueeze, name, {{"axes", Ints{2}}}, {*v});
    if (!r.ok()) return ctx.Error(node, std::string(r.status().message()));
    absl::Status s = ctx.Define(name, (*r)[0]);
    if (!s.ok()) return s;
    lifted.set_input(i, name);
  }
  const std::string out2d = node.output(0) + "/2d";
  lifted.clear_output();
  lifted.add_output(out2d);
  absl::Status s = convert(ctx, lifted);
  if (!s.ok()) return s;
  std::optional<graph::ValueId> y = ctx.Lookup(out2d);
  if (!y) return ctx.Error(node, "has no output");
  return ctx.Emit(node, OpKind::kSqueeze, {{"axes", Ints{2}}}, {*y});
}

// 1-D forms go through ConvertAs2d; the rest as they are.
template <absl::Status (*kConvert)(ImportContext&, const NodeProto&)>
absl::Status OneOrTwoD(ImportContext& ctx, const NodeProto& node) {
  absl::StatusOr<graph::TensorType> x = ctx.InputType(node, 0);
  if (!x.ok()) return x.status();
  if (x->rank() == 3) return ConvertAs2d(ctx, node, kConvert);
  return kConvert(ctx, node);
}

absl::Status MaxPool(ImportContext& ctx, const NodeProto& node) {
  return Pool(ctx, node, OpKind::kMaxPool2d);
}

absl::Status AveragePool(ImportContext& ctx, const NodeProto& node) {
  return Pool(ctx, node, OpKind::kAvgPool2d);
}

absl::Status Gemm(ImportContext& ctx, const NodeProto& node) {
  absl::StatusOr<int64_t> ta = ctx.AttrInt(node, "transA", 0);
  absl::StatusOr<int64_t> tb = ctx.AttrInt(node, "transB", 0);
  absl::StatusOr<double> alpha = ctx.AttrFloat(node, "alpha", 1.0);
  absl::StatusOr<double> beta = ctx.AttrFloat(node, "beta", 1.0);
  for (const absl::Status& s : {ta.status(), tb.status(), alpha.status(), beta.status()}) {
    if (!s.ok()) return s;
  }
  Attributes attrs{{"trans_a", *ta}, {"trans_b", *tb}, {"alpha", *alpha}, {"beta", *beta}};
  std::vector<graph::ValueId> inputs;
  for (int i = 0; i < 3; ++i) {
    if (i == 2 && !ctx.HasInput(node, 2)) break;
    absl::StatusOr<graph::ValueId> v = ctx.Input(node, i);
    if (!v.ok()) return v.status();
    inputs.push_back(*v);
  }
  return ctx.Emit(node, OpKind::kGemm, std::move(attrs), std::move(inputs));
}

absl::Status MatMul(ImportContext& ctx, const NodeProto& node) {
  absl::StatusOr<graph::ValueId> a = ctx.Input(node, 0);
  if (!a.ok()) return a.status();
  absl::StatusOr<graph::ValueId> b = ctx.Input(node, 1);
  if (!b.ok()) return b.status();
  return ctx.Emit(node, OpKind::kMatMul, {}, {*a, *b});
}

absl::Status BatchNormalization(ImportContext& ctx, const NodeProto& node) {
  absl::StatusOr<double> epsilon = ctx.AttrFloat(node, "epsilon", 1e-5f);
  if (!epsilon.ok()) return epsilon.status();
  std::vector<graph::ValueId> inputs;
  for (int i = 0; i < 5; ++i) {
    absl::StatusOr<graph::ValueId> v = ctx.Input(node, i);
    if (!v.ok()) return v.status();
    inputs.push_back(*v);
  }
  return ctx.Emit(node, OpKind::kBatchNorm, {{"epsilon", *epsilon}}, std::move(inputs));
}

// Before opset 13, Softmax flattens the input to 2-D at `axis` (default 1) and normalizes over
// the second dimension; from 13 it normalizes over one axis (default -1). The old form becomes
// reshape -> softmax -> reshape unless the axis is the last one anyway. LogSoftmax and Hardmax
// alike.
absl::Status Softmax(ImportContext& ctx, const NodeProto& node) {
  const OpKind op = node.op_type() == "LogSoftmax" ? OpKind::kLogSoftmax
                    : node.op_type() == "Hardmax"  ? OpKind::kHardmax
                                                   : OpKind::kSoftmax;
  bool coerced = ctx.opset() < 13;
  absl::StatusOr<int64_t> axis = ctx.AttrInt(node, "axis", coerced ? 1 : -1);
  if (!axis.ok()) return axis.status();
  absl::StatusOr<graph::TensorType> t = ctx.InputType(node, 0);
  if (!t.ok()) return t.status();
  absl::StatusOr<graph::ValueId> x = ctx.Input(node, 0);
  if (!x.ok()) return x.status();
  int64_t a = *axis < 0 ? *axis + t->rank() : *axis;
  if (!coerced || a == t->rank() - 1) {
    return ctx.Emit(node, op, {{"axis", *axis}}, {*x});
  }
  graph::Graph& g = ctx.graph();
  auto part = [&](const char* suffix) { return ImportContext::PartName(node, suffix); };
  absl::StatusOr<std::vector<graph::ValueId>> flat =
      g.AddOp(OpKind::kFlatten, part("/flatten"), {{"axis", *axis}}, {*x});
  if (!flat.ok()) return ctx.Error(node, std::string(flat.status().message()));
  absl::StatusOr<std::vector<graph::ValueId>> sm =
      g.AddOp(op, part("/softmax"), {{"axis", int64_t{1}}}, {(*flat)[0]});
  if (!sm.ok()) return ctx.Error(node, std::string(sm.status().message()));
  return ctx.Emit(node, OpKind::kReshape, {{"shape", t->shape}}, {(*sm)[0]});
}

absl::Status Lrn(ImportContext& ctx, const NodeProto& node) {
  absl::StatusOr<int64_t> size = ctx.AttrInt(node, "size", 0);
  absl::StatusOr<double> alpha = ctx.AttrFloat(node, "alpha", 1e-4f);
  absl::StatusOr<double> beta = ctx.AttrFloat(node, "beta", 0.75f);
  absl::StatusOr<double> bias = ctx.AttrFloat(node, "bias", 1.0f);
  for (const absl::Status& s : {size.status(), alpha.status(), beta.status(), bias.status()}) {
    if (!s.ok()) return s;
  }
  absl::StatusOr<graph::ValueId> x = ctx.Input(node, 0);
  if (!x.ok()) return x.status();
  return ctx.Emit(node, OpKind::kLrn,
                  {{"size", *size}, {"alpha", *alpha}, {"beta", *beta}, {"bias", *bias}}, {*x});
}

constexpr OnnxConverter kNnConverters[] = {
    {"Conv", &OneOrTwoD<&Conv>},
    {"Gemm", &Gemm},
    {"MatMul", &MatMul},
    {"BatchNormalization", &BatchNormalization},
    {"MaxPool", &OneOrTwoD<&MaxPool>},
    {"AveragePool", &OneOrTwoD<&AveragePool>},
    {"GlobalAveragePool", &OneOrTwoD<&GlobalPool<OpKind::kGlobalAvgPool2d>>},
    {"GlobalMaxPool", &OneOrTwoD<&GlobalPool<OpKind::kGlobalMaxPool2d>>},
    {"Softmax", &Softmax},
    {"LogSoftmax", &Softmax},
    {"Hardmax", &Softmax},
    {"LRN", &Lrn},
};

}  // namespace

std::span<const OnnxConverter> NnConverters() { return kNnConverters; }

}  // namespace tunefarm::frontend::onnx
