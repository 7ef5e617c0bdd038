// Rules for vector operands: an operation on broadcasts is a broadcast of the scalar operation,
// and ramps absorb additions, constant scalings and divisions that stay within one block, so
// vectorized index arithmetic stays a Ramp.
#include <numeric>

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
    case ExprKind::kFloorDiv:
    case ExprKind::kFloorMod:
      if (ra && bb) return RampFloorDivMod(kind, *ra, bb->value);
      return ir::Expr();
    default:
      return ir::Expr();
  }
}

// floordiv/floormod of ramp(b, s, L) by a constant c when the lanes never cross a multiple of c:
// the largest residue r that b mod c can have (b's modular set) has r + (L-1)*s < c. Then every
// lane has b's quotient, and the remainders are ramp(b mod c, s, L). Flattened indices of a
// vectorized axis split by a factor (n // 16, n % 16) stay contiguous vector accesses this way.
ir::Expr Rewriter::RampFloorDivMod(ir::ExprKind kind, const ir::RampNode& ramp,
                                   const ir::Expr& divisor) {
  const auto* c = divisor.As<ir::IntImmNode>();
  const auto* s = ramp.stride.As<ir::IntImmNode>();
  if (c == nullptr || s == nullptr || c->value <= 0 || s->value < 0 || analyzer_ == nullptr) {
    return ir::Expr();
  }
  // b = coeff*k + base, so b mod c is congruent to base modulo g = gcd(coeff, c): the largest
  // residue b can have is (base mod g) + c - g.
  ModularSet m = analyzer_->GetModularSet(ramp.base);
  int64_t g = std::gcd(m.coeff, c->value);
  int64_t largest_residue = ((m.base % g) + g) % g + c->value - g;
  if (largest_residue + (ramp.lanes - 1) * s->value >= c->value) return ir::Expr();
  if (kind == ir::ExprKind::kFloorDiv) {
    return ir::BroadcastNode::Make(Binary(kind, ramp.base, divisor), ramp.lanes);
  }
  return ir::RampNode::Make(Binary(kind, ramp.base, divisor), ramp.stride, ramp.lanes);
}

}  // namespace tunefarm::arith
