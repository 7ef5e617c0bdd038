// Computes of the math ops: unary functions by name, pow/mod/maximum/minimum/prelu, reduce, the
// comparisons and logic, where and cast, from topi's unary_math.h, elementwise.h and reduce.h.
#include <algorithm>
#include <numeric>

#include "compiler/graph/op_compute_impl.h"
#include "compiler/topi/elementwise.h"
#include "compiler/topi/reduce.h"
#include "compiler/topi/unary_math.h"
#include "runtime/data_type.h"

namespace tunefarm::graph {

ComputeResult ComputeUnary(const ComputeContext& ctx) {
  absl::StatusOr<std::string> name = ctx.node.attrs.String("fn", "");
  if (!name.ok()) return ctx.Annotate(name.status());
  std::optional<topi::UnaryFn> fn = topi::UnaryFnFromName(*name);
  if (!fn) return ctx.Error("unknown function '" + *name + "'");
  absl::StatusOr<double> alpha = FloatAttr(ctx, "alpha", 0);
  absl::StatusOr<double> gamma = FloatAttr(ctx, "gamma", 0);
  if (!alpha.ok()) return alpha.status();
  if (!gamma.ok()) return gamma.status();
  return One(ctx, topi::UnaryMathCompute(ctx.inputs[0], *fn, {*alpha, *gamma}));
}

ComputeResult ComputePow(const ComputeContext& ctx) {
  return One(ctx, topi::PowCompute(ctx.inputs[0], ctx.inputs[1]));
}

ComputeResult ComputeTrilu(const ComputeContext& ctx) {
  absl::StatusOr<int64_t> upper = ctx.node.attrs.Int("upper", 1);
  absl::StatusOr<int64_t> k = ctx.node.attrs.Int("k", 0);
  if (!upper.ok()) return ctx.Annotate(upper.status());
  if (!k.ok()) return ctx.Annotate(k.status());
  return One(ctx, topi::TriluCompute(ctx.inputs[0], *upper != 0, *k));
}

ComputeResult ComputeMod(const ComputeContext& ctx) {
  absl::StatusOr<int64_t> fmod = ctx.node.attrs.Int("fmod", 0);
  if (!fmod.ok()) return ctx.Annotate(fmod.status());
  return One(ctx, topi::ModCompute(ctx.inputs[0], ctx.inputs[1], *fmod != 0));
}

ComputeResult ComputeMaximum(const ComputeContext& ctx) {
  return One(ctx, topi::MaximumCompute(ctx.inputs[0], ctx.inputs[1]));
}

ComputeResult ComputeMinimum(const ComputeContext& ctx) {
  return One(ctx, topi::MinimumCompute(ctx.inputs[0], ctx.inputs[1]));
}

ComputeResult ComputePRelu(const ComputeContext& ctx) {
  return One(ctx, topi::PReluCompute(ctx.inputs[0], ctx.inputs[1]));
}

ComputeResult ComputeReduce(const ComputeContext& ctx) {
  absl::StatusOr<std::string> name = ctx.node.attrs.String("fn", "");
  if (!name.ok()) return ctx.Annotate(name.status());
  std::optional<topi::ReduceFn> fn = topi::ReduceFnFromName(*name);
  if (!fn) return ctx.Error("unknown reduction '" + *name + "'");
  const int rank = ctx.input_types[0].rank();
  std::vector<int64_t> all(rank);
  std::iota(all.begin(), all.end(), 0);
  absl::StatusOr<std::vector<int64_t>> axes = IntsAttr(ctx, "axes", all);
  absl::StatusOr<int64_t> keep = IntAttr(ctx, "keep_dims", 1);
  if (!axes.ok()) return axes.status();
  if (!keep.ok()) return keep.status();
  std::vector<int> normalized;
  for (int64_t a : *axes) normalized.push_back(NormalizedAxis(a, rank));
  absl::StatusOr<topi::ReduceTensors> t =
      topi::ReduceCompute(ctx.inputs[0], *fn, normalized, *keep != 0);
  if (!t.ok()) return ctx.Annotate(t.status());
  return One(ctx, t->out, t->stages);
}

ComputeResult ComputeCompare(const ComputeContext& ctx) {
  absl::StatusOr<std::string> fn = ctx.node.attrs.String("fn", "");
  if (!fn.ok()) return ctx.Annotate(fn.status());
  std::optional<topi::CompareFn> f = topi::CompareFnFromName(*fn);
  if (!f) return ctx.Error("unknown comparison '" + *fn + "'");
  return One(ctx, topi::CompareCompute(ctx.inputs[0], ctx.inputs[1], *f));
}

ComputeResult ComputeLogical(const ComputeContext& ctx) {
  absl::StatusOr<std::string> fn = ctx.node.attrs.String("fn", "");
  if (!fn.ok()) return ctx.Annotate(fn.status());
  std::optional<topi::LogicalFn> f = topi::LogicalFnFromName(*fn);
  if (!f) return ctx.Error("unknown logical function '" + *fn + "'");
  return One(ctx, topi::LogicalCompute(ctx.inputs[0], ctx.inputs[1], *f));
}

ComputeResult ComputeLogicalNot(const ComputeContext& ctx) {
  return One(ctx, topi::LogicalNotCompute(ctx.inputs[0]));
}

ComputeResult ComputeWhere(const ComputeContext& ctx) {
  return One(ctx, topi::WhereCompute(ctx.inputs[0], ctx.inputs[1], ctx.inputs[2]));
}

ComputeResult ComputeCast(const ComputeContext& ctx) {
  std::optional<ir::DataType> to =
      ir::DataType::Parse(runtime::DataTypeToString(ctx.output_types[0].dtype));
  if (!to) return ctx.Error("no IR type for " + ctx.output_types[0].ToString());
  return One(ctx, topi::CastCompute(ctx.inputs[0], *to));
}

}  // namespace tunefarm::graph
