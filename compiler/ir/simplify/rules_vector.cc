// Rules for vector operands: an operation on broadcasts is a broadcast of the scalar operation,
// and ramps absorb additions and constant scalings, so vectorized index arithmetic stays a Ramp.
#include "compiler/ir/simplify/rewriter.h"

namespace tunefarm::arith {

ir::Expr Rewriter::VectorRule(ir::ExprKind kind, const ir::Expr& a, const ir::Expr& b) {
  using ir::ExprKind;
  const auto* ba = a.As<ir::BroadcastNode>();
  const auto* bb = b.As<ir::BroadcastNode>();
  if (ba && bb) return ir::BroadcastNode::Make(Binary(kind, ba->value, bb->value), ba->lanes);
  // Reassociating float lanes would change their rounding.
  if (!a.dtype().is_integral()) return ir::Expr();
  const auto* ra = a.As<ir::RampNode>();
  const auto* rb = b.As<ir::RampNode>();
  int lanes = a.dtype().lanes();
  auto ramp = [&](const ir::Expr& base, const ir::Expr& stride) {
    return ir::RampNode::Make(base, stride, lanes);
  };
  switch (kind) {
    case ExprKind::kAdd:
    case ExprKind::kSub: {
      ir::Expr zero = ir::MakeZero(a.dtype().element_of());
      // A broadcast is a ramp of stride 0.
      ir::Expr base_a = ra ? ra->base : (ba ? ba->value : ir::Expr());
      ir::Expr stride_a = ra ? ra->stride : zero;
      ir::Expr base_b = rb ? rb->base : (bb ? bb->value : ir::Expr());
      ir::Expr stride_b = rb ? rb->stride : zero;
      if (!base_a.defined() || !base_b.defined()) return ir::Expr();
      ir::Expr stride = Binary(kind, stride_a, stride_b);
      ir::Expr base = Binary(kind, base_a, base_b);
      if (ir::IsConstInt(stride, 0)) return ir::BroadcastNode::Make(base, lanes);
      return ramp(base, stride);
    }
    case ExprKind::kMul: {
      if (ra && bb)
        return ramp(Binary(kind, ra->base, bb->value), Binary(kind, ra->stride, bb->value));
      if (ba && rb)
        return ramp(Binary(kind, ba->value, rb->base), Binary(kind, ba->value, rb->stride));
      return ir::Expr();
    }
    default:
      return ir::Expr();
  }
}

}  // namespace tunefarm::arith
