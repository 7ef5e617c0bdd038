// Computes of the elementwise and broadcasting ops, from topi's elementwise.h and activation.h.
#include <algorithm>
#include <cmath>

#include "compiler/graph/op_compute_impl.h"
#include "compiler/topi/activation.h"
#include "compiler/topi/elementwise.h"

namespace tunefarm::graph {
namespace {

// [lo, hi] of an integer IR type, as doubles (exact up to 2^53, enough to clamp a bound).
std::pair<double, double> IntegerRange(ir::DataType t) {
  if (t.is_bool()) return {0, 1};
  if (t.is_uint()) return {0, std::ldexp(1.0, t.bits()) - 1};
  return {-std::ldexp(1.0, t.bits() - 1), std::ldexp(1.0, t.bits() - 1) - 1};
}

}  // namespace

ComputeResult ComputeRelu(const ComputeContext& ctx) {
  return One(ctx, topi::ReluCompute(ctx.inputs[0]));
}

ComputeResult ComputeClip(const ComputeContext& ctx) {
  absl::StatusOr<double> lo = FloatAttr(ctx, "min", -INFINITY);
  absl::StatusOr<double> hi = FloatAttr(ctx, "max", INFINITY);
  if (!lo.ok()) return lo.status();
  if (!hi.ok()) return hi.status();
  ir::DataType t = ctx.inputs[0].dtype();
  if (!t.is_float()) {
    // An unbounded side of an integer clip is the type's own bound: no constant overflows.
    auto [min, max] = IntegerRange(t);
    *lo = std::clamp(*lo, min, max);
    *hi = std::clamp(*hi, min, max);
  }
  // numpy's clip: with lo > hi every element becomes hi.
  if (*lo > *hi) *lo = *hi;
  return One(ctx, topi::ClipCompute(ctx.inputs[0], *lo, *hi));
}

ComputeResult ComputeSigmoid(const ComputeContext& ctx) {
  return One(ctx, topi::SigmoidCompute(ctx.inputs[0]));
}

ComputeResult ComputeTanh(const ComputeContext& ctx) {
  return One(ctx, topi::TanhCompute(ctx.inputs[0]));
}

ComputeResult ComputeExp(const ComputeContext& ctx) {
  return One(ctx, topi::ExpCompute(ctx.inputs[0]));
}

ComputeResult ComputeIdentity(const ComputeContext& ctx) {
  return One(ctx, topi::IdentityCompute(ctx.inputs[0]));
}

ComputeResult ComputeHardSigmoid(const ComputeContext& ctx) {
  absl::StatusOr<double> alpha = FloatAttr(ctx, "alpha", 0.2);
  absl::StatusOr<double> beta = FloatAttr(ctx, "beta", 0.5);
  if (!alpha.ok()) return alpha.status();
  if (!beta.ok()) return beta.status();
  return One(ctx, topi::HardSigmoidCompute(ctx.inputs[0], *alpha, *beta));
}

ComputeResult ComputeHardSwish(const ComputeContext& ctx) {
  return One(ctx, topi::HardSwishCompute(ctx.inputs[0]));
}

ComputeResult ComputeAdd(const ComputeContext& ctx) {
  return One(ctx, topi::AddCompute(ctx.inputs[0], ctx.inputs[1]));
}

ComputeResult ComputeSub(const ComputeContext& ctx) {
  return One(ctx, topi::SubtractCompute(ctx.inputs[0], ctx.inputs[1]));
}

ComputeResult ComputeMul(const ComputeContext& ctx) {
  return One(ctx, topi::MultiplyCompute(ctx.inputs[0], ctx.inputs[1]));
}

ComputeResult ComputeDiv(const ComputeContext& ctx) {
  return One(ctx, topi::DivideCompute(ctx.inputs[0], ctx.inputs[1]));
}

}  // namespace tunefarm::graph
