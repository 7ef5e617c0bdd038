// ONNX's NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss, composed from gather, compare,
// where and reduce ops, so that a model exported with its loss (or a loss evaluated on a
// device) imports whole.
#include <optional>

#include "absl/strings/str_cat.h"
#include "compiler/frontend/onnx/converters.h"
#include "runtime/data_type.h"

namespace tunefarm::frontend::onnx {
namespace {

using graph::OpKind;

struct LossOptions {
  std::string reduction;                // "none", "sum" or "mean"
  std::optional<int64_t> ignore_index;  // a target that contributes nothing
};

absl::StatusOr<LossOptions> ReadLossOptions(ImportContext& ctx, const NodeProto& node) {
  LossOptions o;
  absl::StatusOr<std::string> reduction = ctx.AttrString(node, "reduction", "mean");
  if (!reduction.ok()) return reduction.status();
  if (*reduction != "none" && *reduction != "sum" && *reduction != "mean") {
    return ctx.Error(node, "reduction must be none, sum or mean, not '" + *reduction + "'");
  }
  o.reduction = *reduction;
  if (ctx.HasAttr(node, "ignore_index")) {
    absl::StatusOr<int64_t> ii = ctx.AttrInt(node, "ignore_index", 0);
    if (!ii.ok()) return ii.status();
    o.ignore_index = *ii;
  }
  return o;
}

// loss[n, d...] = -log_prob[n, target[n, d...], d...] * weight[target], 0 where the target is
// ignore_index, then summed, or averaged over the weights of the targets not ignored.
absl::Status EmitNegativeLogLikelihood(ImportContext& ctx, const NodeProto& node,
                                       graph::ValueId log_prob, graph::ValueId target,
                                       std::optional<graph::ValueId> weight, const LossOptions& o) {
  // Copies: adding constants below grows the graph's value table, which would leave a pointer
  // into it dangling.
  const graph::TensorType lp = ctx.graph().value(log_prob).type;
  const graph::TensorType tt = ctx.graph().value(target).type;
  if (lp.rank() < 2 || tt.rank() != lp.rank() - 1) {
    return ctx.Error(node, absl::StrCat("needs input [N, C, d...] and target [N, d...], not ",
                                        lp.ToString(), " and ", tt.ToString()));
  }
  if (tt.dtype.code != kDLInt) return ctx.Error(node, "the target must hold integers");
  // Where the target is ignored, class 0 stands in for it, so that nothing reads out of range.
  std::optional<graph::ValueId> kept;
  graph::ValueId safe_target = target;
  if (o.ignore_index.has_value()) {
    absl::StatusOr<graph::ValueId> ii =
        ctx.AddScalar(node, "/ignore_index", tt.dtype, static_cast<double>(*o.ignore_index));
    absl::StatusOr<graph::ValueId> zero = ctx.AddScalar(node, "/class_0", tt.dtype, 0);
    if (!ii.ok()) return ii.status();
    if (!zero.ok()) return zero.status();
    absl::StatusOr<graph::ValueId> ignored = ctx.EmitInner(
        node, OpKind::kCompare, "/ignored", {{"fn", std::string("equal")}}, {target, *ii});
    if (!ignored.ok()) return ignored.status();
    absl::StatusOr<graph::ValueId> not_ignored =
        ctx.EmitInner(node, OpKind::kLogicalNot, "/kept", {}, {*ignored});
    if (!not_ignored.ok()) return not_ignored.status();
    kept = *not_ignored;
    absl::StatusOr<graph::ValueId> safe =
        ctx.EmitInner(node, OpKind::kWhere, "/safe_target", {}, {*kept, target, *zero});
    if (!safe.ok()) return safe.status();
    safe_target = *safe;
  }
  absl::StatusOr<graph::ValueId> index = ctx.EmitInner(
      node, OpKind::kUnsqueeze, "/class_index", {{"axes", std::vector<int64_t>{1}}}, {safe_target});
  if (!index.ok()) return index.status();
  absl::StatusOr<graph::ValueId> picked = ctx.EmitInner(node, OpKind::kGatherElements, "/picked",
                                                        {{"axis", int64_t{1}}}, {log_prob, *index});
  if (!picked.ok()) return picked.status();
  absl::StatusOr<graph::ValueId> squeezed = ctx.EmitInner(
      node, OpKind::kSqueeze, "/picked_squeezed", {{"axes", std::vector<int64_t>{1}}}, {*picked});
  if (!squeezed.ok()) return squeezed.status();
  absl::StatusOr<graph::ValueId> negated =
      ctx.EmitInner(node, OpKind::kUnary, "/negated", {{"fn", std::string("neg")}}, {*squeezed});
  if (!negated.ok()) return negated.status();
  // Each element's weight: the class's (or 1), 0 where ignored.
  std::optional<graph::ValueId> element_weight;
  if (weight.has_value()) {
    absl::StatusOr<graph::ValueId> w = ctx.EmitInner(
        node, OpKind::kGather, "/class_weight", {{"axis", int64_t{0}}}, {*weight, safe_target});
    if (!w.ok()) return w.status();
    element_weight = *w;
  }
  if (kept.has_value()) {
    absl::StatusOr<graph::ValueId> zero = ctx.AddScalar(node, "/zero", lp.dtype, 0);
    absl::StatusOr<graph::ValueId> one = ctx.AddScalar(node, "/one", lp.dtype, 1);
    if (!zero.ok()) return zero.status();
    if (!one.ok()) return one.status();
    absl::StatusOr<graph::ValueId> w = ctx.EmitInner(node, OpKind::kWhere, "/kept_weight", {},
                                                     {*kept, element_weight.value_or(*one), *zero});
    if (!w.ok()) return w.status();
    element_weight = *w;
  }
  graph::ValueId loss = *negated;
  if (element_weight.has_value()) {
    absl::StatusOr<graph::ValueId> weighted =
        ctx.EmitInner(node, OpKind::kMul, "/weighted", {}, {*negated, *element_weight});
    if (!weighted.ok()) return weighted.status();
    loss = *weighted;
  }
  if (o.reduction == "none") return ctx.DefineValue(node, 0, loss);
  const graph::Attributes sum_all{{"fn", std::string("sum")}, {"keep_dims", int64_t{0}}};
  if (o.reduction == "sum") return ctx.Emit(node, OpKind::kReduce, sum_all, {loss});
  if (!element_weight.has_value()) {
    return ctx.Emit(node, OpKind::kReduce, {{"fn", std::string("mean")}, {"keep_dims", int64_t{0}}},
                    {loss});
  }
  absl::StatusOr<graph::ValueId> total =
      ctx.EmitInner(node, OpKind::kReduce, "/total", sum_all, {loss});
  absl::StatusOr<graph::ValueId> weights =
      ctx.EmitInner(node, OpKind::kReduce, "/total_weight", sum_all, {*element_weight});
  if (!total.ok()) return total.status();
  if (!weights.ok()) return weights.status();
  return ctx.Emit(node, OpKind::kDiv, {}, {*total, *weights});
}

absl::Status NegativeLogLikelihoodLoss(ImportContext& ctx, const NodeProto& node) {
  absl::StatusOr<LossOptions> o = ReadLossOptions(ctx, node);
  if (!o.ok()) return o.status();
  absl::StatusOr<graph::ValueId> input = ctx.Input(node, 0);
  absl::StatusOr<graph::ValueId> target = ctx.Input(node, 1);
  if (!input.ok()) return input.status();
  if (!target.ok()) return target.status();
  std::optional<graph::ValueId> weight;
  if (ctx.HasInput(node, 2)) {
    absl::StatusOr<graph::ValueId> w = ctx.Input(node, 2);
    if (!w.ok()) return w.status();
    weight = *w;
  }
  return EmitNegativeLogLikelihood(ctx, node, *input, *target, weight, *o);
}

// The log-probabilities over the class axis (1), then the negative log-likelihood of the labels;
// the optional second output is those log-probabilities.
absl::Status SoftmaxCrossEntropyLoss(ImportContext& ctx, const NodeProto& node) {
  absl::StatusOr<LossOptions> o = ReadLossOptions(ctx, node);
  if (!o.ok()) return o.status();
  absl::StatusOr<graph::ValueId> scores = ctx.Input(node, 0);
  absl::StatusOr<graph::ValueId> labels = ctx.Input(node, 1);
  if (!scores.ok()) return scores.status();
  if (!labels.ok()) return labels.status();
  std::optional<graph::ValueId> weight;
  if (ctx.HasInput(node, 2)) {
    absl::StatusOr<graph::ValueId> w = ctx.Input(node, 2);
    if (!w.ok()) return w.status();
    weight = *w;
  }
  absl::StatusOr<graph::ValueId> log_prob =
      ctx.EmitInner(node, OpKind::kLogSoftmax, "/log_prob", {{"axis", int64_t{1}}}, {*scores});
  if (!log_prob.ok()) return log_prob.status();
  if (node.output_size() > 1 && !node.output(1).empty()) {
    if (absl::Status s = ctx.DefineValue(node, 1, *log_prob); !s.ok()) return s;
  }
  return EmitNegativeLogLikelihood(ctx, node, *log_prob, *labels, weight, *o);
}

constexpr OnnxConverter kLossConverters[] = {
    {"NegativeLogLikelihoodLoss", &NegativeLogLikelihoodLoss, 12},
    {"SoftmaxCrossEntropyLoss", &SoftmaxCrossEntropyLoss, 12},
};

}  // namespace

std::span<const OnnxConverter> LossConverters() { return kLossConverters; }

}  // namespace tunefarm::frontend::onnx
