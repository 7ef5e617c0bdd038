// Converters of the elementwise ONNX ops: activations, Clip, Identity/Dropout and the four
// broadcasting arithmetic ops.
#include <cmath>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "compiler/frontend/onnx/converters.h"

namespace tunefarm::frontend::onnx {
namespace {

using graph::Attributes;
using graph::OpKind;

template <OpKind kOp>
absl::Status Unary(ImportContext& ctx, const NodeProto& node) {
  absl::StatusOr<graph::ValueId> x = ctx.Input(node, 0);
  if (!x.ok()) return x.status();
  return ctx.Emit(node, kOp, {}, {*x});
}

// Before opset 7, B broadcasts only with broadcast=1, and `axis` says where its dimensions line
// up with A's (numpy's right alignment when absent): B gets trailing 1s to align it that way.
absl::StatusOr<graph::ValueId> LegacyBroadcastOperand(ImportContext& ctx, const NodeProto& node,
                                                      graph::ValueId b) {
  absl::StatusOr<int64_t> axis = ctx.AttrInt(node, "axis", -1);
  if (!axis.ok()) return axis.status();
  if (ctx.opset() >= 7 || !ctx.HasAttr(node, "axis")) return b;
  absl::StatusOr<graph::TensorType> ta = ctx.InputType(node, 0);
  absl::StatusOr<graph::TensorType> tb = ctx.InputType(node, 1);
  if (!ta.ok()) return ta.status();
  if (!tb.ok()) return tb.status();
  const int64_t a = *axis < 0 ? *axis + ta->rank() : *axis;
  const int64_t trailing = ta->rank() - a - tb->rank();
  if (a < 0 || trailing < 0) return ctx.Error(node, "axis does not fit B's rank into A's");
  if (trailing == 0) return b;
  std::vector<int64_t> shape = tb->shape;
  shape.insert(shape.end(), trailing, 1);
  absl::StatusOr<std::vector<graph::ValueId>> out = ctx.graph().AddOp(
      OpKind::kReshape, ImportContext::PartName(node, "/aligned"), {{"shape", shape}}, {b});
  if (!out.ok()) return ctx.Error(node, std::string(out.status().message()));
  return (*out)[0];
}

template <OpKind kOp>
absl::Status Binary(ImportContext& ctx, const NodeProto& node) {
  absl::StatusOr<graph::ValueId> a = ctx.Input(node, 0);
  if (!a.ok()) return a.status();
  absl::StatusOr<graph::ValueId> b = ctx.Input(node, 1);
  if (!b.ok()) return b.status();
  absl::StatusOr<graph::ValueId> aligned = LegacyBroadcastOperand(ctx, node, *b);
  if (!aligned.ok()) return aligned.status();
  return ctx.Emit(node, kOp, {}, {*a, *aligned});
}

// A constant scalar input read as a number, bools included (Dropout's training_mode is one).
absl::StatusOr<double> ConstantNumberOrBool(ImportContext& ctx, const NodeProto& node, int i,
                                            const char* what) {
  const runtime::NDArray* c = ctx.ConstantInput(node, i);
  if (c != nullptr && c->dtype().code == kDLUInt && c->dtype().bits == 1 && c->NumElements() == 1) {
    return *static_cast<const uint8_t*>(c->data()) != 0 ? 1.0 : 0.0;
  }
  return ctx.ConstantScalar(node, i, what);
}

// Dropout's mask output: true everywhere, as nothing is dropped.
absl::Status DefineKeepAllMask(ImportContext& ctx, const NodeProto& node) {
  if (node.output_size() < 2 || node.output(1).empty()) return absl::OkStatus();
  absl::StatusOr<graph::TensorType> t = ctx.InputType(node, 0);
  if (!t.ok()) return t.status();
  absl::StatusOr<runtime::NDArray> mask = runtime::NDArray::Empty(t->shape, {kDLUInt, 1, 1});
  if (!mask.ok()) return mask.status();
  std::memset(mask->data(), 1, mask->NumBytes());
  return ctx.DefineConstant(node.output(1), *std::move(mask));
}

// Identity and Dropout that drops nothing (inference mode, or a ratio of 0): the output is the
// input value itself, no node, and Dropout's mask is all true. Training-mode Dropout with a ratio
// draws random masks, which a deployed module has no use for: unsupported.
absl::Status Alias(ImportContext& ctx, const NodeProto& node) {
  if (node.op_type() == "Dropout" && ctx.HasInput(node, 2)) {
    absl::StatusOr<double> training = ConstantNumberOrBool(ctx, node, 2, "training_mode");
    if (!training.ok()) return training.status();
    double ratio = 0.5;
    if (ctx.HasInput(node, 1)) {
      absl::StatusOr<double> r = ctx.ConstantScalar(node, 1, "ratio");
      if (!r.ok()) return r.status();
      ratio = *r;
    }
    if (*training != 0 && ratio != 0) {
      return absl::UnimplementedError(
          absl::StrCat("Dropout node '", node.name(),
                       "': training_mode with a ratio above 0 (random masks) is not supported"));
    }
  }
  if (node.op_type() == "Dropout") {
    if (absl::Status s = DefineKeepAllMask(ctx, node); !s.ok()) return s;
  }
  if (const runtime::NDArray* c = ctx.ConstantInput(node, 0)) {
    absl::StatusOr<runtime::NDArray> view = c->View(c->shape());
    if (!view.ok()) return view.status();
    return ctx.DefineConstant(node.output(0), *std::move(view));
  }
  absl::StatusOr<graph::ValueId> x = ctx.Input(node, 0);
  if (!x.ok()) return x.status();
  return ctx.DefineValue(node, 0, *x);
}

absl::Status Clip(ImportContext& ctx, const NodeProto& node) {
  absl::StatusOr<graph::ValueId> x = ctx.Input(node, 0);
  if (!x.ok()) return x.status();
  Attributes attrs;
  if (ctx.opset() < 11) {
    // Before opset 11 the bounds are attributes and default to the float range.
    absl::StatusOr<double> lo = ctx.AttrFloat(node, "min", -INFINITY);
    absl::StatusOr<double> hi = ctx.AttrFloat(node, "max", INFINITY);
    if (!lo.ok()) return lo.status();
    if (!hi.ok()) return hi.status();
    if (std::isfinite(*lo)) attrs.Set("min", *lo);
    if (std::isfinite(*hi)) attrs.Set("max", *hi);
  } else {
    static constexpr const char* kNames[] = {"min", "max"};
    for (int i = 1; i <= 2; ++i) {
      if (!ctx.HasInput(node, i)) continue;
      absl::StatusOr<double> v = ctx.ConstantScalar(node, i, kNames[i - 1]);
      if (!v.ok()) return v.status();
      attrs.Set(kNames[i - 1], *v);
    }
  }
  return ctx.Emit(node, OpKind::kClip, std::move(attrs), {*x});
}

absl::Status HardSigmoid(ImportContext& ctx, const NodeProto& node) {
  absl::StatusOr<graph::ValueId> x = ctx.Input(node, 0);
  if (!x.ok()) return x.status();
  absl::StatusOr<double> alpha = ctx.AttrFloat(node, "alpha", 0.2f);
  absl::StatusOr<double> beta = ctx.AttrFloat(node, "beta", 0.5f);
  if (!alpha.ok()) return alpha.status();
  if (!beta.ok()) return beta.status();
  return ctx.Emit(node, OpKind::kHardSigmoid, {{"alpha", *alpha}, {"beta", *beta}}, {*x});
}

constexpr OnnxConverter kElementwiseConverters[] = {
    {"Relu", &Unary<OpKind::kRelu>},
    {"Sigmoid", &Unary<OpKind::kSigmoid>},
    {"Tanh", &Unary<OpKind::kTanh>},
    {"Exp", &Unary<OpKind::kExp>},
    {"HardSwish", &Unary<OpKind::kHardSwish>},
    {"HardSigmoid", &HardSigmoid},
    {"Clip", &Clip},
    {"Identity", &Alias},
    {"Dropout", &Alias},
    {"Add", &Binary<OpKind::kAdd>},
    {"Sub", &Binary<OpKind::kSub>},
    {"Mul", &Binary<OpKind::kMul>},
    {"Div", &Binary<OpKind::kDiv>},
};

}  // namespace

std::span<const OnnxConverter> ElementwiseConverters() { return kElementwiseConverters; }

}  // namespace tunefarm::frontend::onnx
