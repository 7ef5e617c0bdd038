// Converters of ONNX's normalizations over computed statistics: LayerNormalization (one graph
// op), and InstanceNormalization and MeanVarianceNormalization, written with it or with reduce.
#include "absl/strings/str_cat.h"
#include "compiler/frontend/onnx/converters.h"

namespace tunefarm::frontend::onnx {
namespace {

using graph::Attributes;
using graph::OpKind;

// Adds one op of a multi-op conversion, named after the node; its one output.
absl::StatusOr<graph::ValueId> AddPart(ImportContext& ctx, const NodeProto& node,
                                       const char* suffix, OpKind op, Attributes attrs,
                                       std::vector<graph::ValueId> inputs) {
  absl::StatusOr<std::vector<graph::ValueId>> out = ctx.graph().AddOp(
      op, ImportContext::PartName(node, suffix), std::move(attrs), std::move(inputs));
  if (!out.ok()) return ctx.Error(node, std::string(out.status().message()));
  return (*out)[0];
}

absl::Status LayerNormalization(ImportContext& ctx, const NodeProto& node) {
  absl::StatusOr<int64_t> axis = ctx.AttrInt(node, "axis", -1);
  absl::StatusOr<double> epsilon = ctx.AttrFloat(node, "epsilon", 1e-5f);
  if (!axis.ok()) return axis.status();
  if (!epsilon.ok()) return epsilon.status();
  std::vector<graph::ValueId> inputs;
  for (int i = 0; i < 3; ++i) {
    if (i == 2 && !ctx.HasInput(node, 2)) break;
    absl::StatusOr<graph::ValueId> v = ctx.Input(node, i);
    if (!v.ok()) return v.status();
    inputs.push_back(*v);
  }
  Attributes attrs{{"axis", *axis}, {"epsilon", *epsilon}};
  for (int i = 1; i < node.output_size(); ++i) {
    if (!node.output(i).empty()) attrs.Set("statistics", int64_t{1});
  }
  return ctx.Emit(node, OpKind::kLayerNorm, std::move(attrs), std::move(inputs));
}

// Per sample and channel over the spatial axes: layer_norm from axis 2, then the per-channel
// scale and bias, reshaped to [C, 1, ...] so that they broadcast along the channel axis.
absl::Status InstanceNormalization(ImportContext& ctx, const NodeProto& node) {
  absl::StatusOr<double> epsilon = ctx.AttrFloat(node, "epsilon", 1e-5f);
  if (!epsilon.ok()) return epsilon.status();
  absl::StatusOr<graph::TensorType> t = ctx.InputType(node, 0);
  if (!t.ok()) return t.status();
  if (t->rank() < 3) return ctx.Error(node, "input must have a channel and a spatial axis");
  absl::StatusOr<graph::ValueId> x = ctx.Input(node, 0);
  if (!x.ok()) return x.status();
  absl::StatusOr<graph::ValueId> normalized =
      AddPart(ctx, node, "/normalize", OpKind::kLayerNorm,
              {{"axis", int64_t{2}}, {"epsilon", *epsilon}}, {*x});
  if (!normalized.ok()) return normalized.status();
  std::vector<int64_t> per_channel(t->rank() - 1, 1);
  per_channel[0] = t->shape[1];
  std::vector<graph::ValueId> params;
  for (int i = 1; i <= 2; ++i) {
    absl::StatusOr<graph::ValueId> p = ctx.Input(node, i);
    if (!p.ok()) return p.status();
    absl::StatusOr<graph::ValueId> shaped = AddPart(
        ctx, node, i == 1 ? "/scale" : "/bias", OpKind::kReshape, {{"shape", per_channel}}, {*p});
    if (!shaped.ok()) return shaped.status();
    params.push_back(*shaped);
  }
  absl::StatusOr<graph::ValueId> scaled =
      AddPart(ctx, node, "/scaled", OpKind::kMul, {}, {*normalized, params[0]});
  if (!scaled.ok()) return scaled.status();
  return ctx.Emit(node, OpKind::kAdd, {}, {*scaled, params[1]});
}

// (x - mean) / (sqrt(variance) + 1e-9) over `axes` (default N, H, W), as ONNX defines it.
absl::Status MeanVarianceNormalization(ImportContext& ctx, const NodeProto& node) {
  absl::StatusOr<std::vector<int64_t>> axes = ctx.AttrInts(node, "axes", {0, 2, 3});
  if (!axes.ok()) return axes.status();
  absl::StatusOr<graph::TensorType> t = ctx.InputType(node, 0);
  if (!t.ok()) return t.status();
  if (t->dtype.code != kDLFloat || t->dtype.bits != 32) {
    return ctx.Error(node, "input must be float32");
  }
  absl::StatusOr<graph::ValueId> x = ctx.Input(node, 0);
  if (!x.ok()) return x.status();
  const Attributes mean_attrs{
      {"fn", std::string("mean")}, {"axes", *axes}, {"keep_dims", int64_t{1}}};
  absl::StatusOr<graph::ValueId> mean =
      AddPart(ctx, node, "/mean", OpKind::kReduce, mean_attrs, {*x});
  if (!mean.ok()) return mean.status();
  absl::StatusOr<graph::ValueId> centered =
      AddPart(ctx, node, "/centered", OpKind::kSub, {}, {*x, *mean});
  if (!centered.ok()) return centered.status();
  absl::StatusOr<graph::ValueId> squared =
      AddPart(ctx, node, "/squared", OpKind::kMul, {}, {*centered, *centered});
  if (!squared.ok()) return squared.status();
  absl::StatusOr<graph::ValueId> variance =
      AddPart(ctx, node, "/variance", OpKind::kReduce, mean_attrs, {*squared});
  if (!variance.ok()) return variance.status();
  absl::StatusOr<graph::ValueId> deviation =
      AddPart(ctx, node, "/deviation", OpKind::kUnary, {{"fn", std::string("sqrt")}}, {*variance});
  if (!deviation.ok()) return deviation.status();
  absl::StatusOr<runtime::NDArray> epsilon = runtime::NDArray::Empty({}, t->dtype);
  if (!epsilon.ok()) return epsilon.status();
  *static_cast<float*>(epsilon->data()) = 1e-9f;
  graph::ValueId eps =
      ctx.graph().AddConstant(ImportContext::PartName(node, "/epsilon"), *std::move(epsilon));
  absl::StatusOr<graph::ValueId> denominator =
      AddPart(ctx, node, "/denominator", OpKind::kAdd, {}, {*deviation, eps});
  if (!denominator.ok()) return denominator.status();
  return ctx.Emit(node, OpKind::kDiv, {}, {*centered, *denominator});
}

constexpr OnnxConverter kNormalizeConverters[] = {
    {"LayerNormalization", &LayerNormalization},
    {"InstanceNormalization", &InstanceNormalization},
    {"MeanVarianceNormalization", &MeanVarianceNormalization},
};

}  // namespace

std::span<const OnnxConverter> NormalizeConverters() { return kNormalizeConverters; }

}  // namespace tunefarm::frontend::onnx
