// Rules for Min and Max: decided outright when known bounds order the operands (directly, or
// through the bounds of their difference, which covers min(x, x + 3) and symbolic bounds);
// otherwise constants move right, nested constants merge, and absorption laws apply.
#include "compiler/ir/simplify/const_fold.h"
#include "compiler/ir/simplify/rewriter.h"
#include "compiler/ir/structural_equal.h"

namespace tunefarm::arith {
namespace {

using ir::Expr;
using ir::ExprKind;

ExprKind Dual(ExprKind kind) { return kind == ExprKind::kMin ? ExprKind::kMax : ExprKind::kMin; }

}  // namespace

// -1 when a <= b is proven, 1 when a >= b is proven, 0 otherwise.
int Rewriter::ProveOrder(const Expr& a, const Expr& b) {
  ConstIntBound ba = analyzer_->GetConstBound(a), bb = analyzer_->GetConstBound(b);
  if (ba.max <= bb.min) return -1;
  if (ba.min >= bb.max) return 1;
  if (!a.dtype().is_int()) return 0;
  ConstIntBound d = analyzer_->GetConstBound(Linear(a, b, -1));
  if (d.max <= 0) return -1;
  if (d.min >= 0) return 1;
  return 0;
}

Expr Rewriter::MinMaxRule(ExprKind kind, const Expr& a, const Expr& b) {
  bool is_min = kind == ExprKind::kMin;
  if (ir::StructuralEqual(a, b)) return a;
  if (!a.dtype().is_integral()) return MakeBinaryNode(kind, a, b);
  if (IsImmediate(a) && !IsImmediate(b)) return MinMaxRule(kind, b, a);
  int order = ProveOrder(a, b);
  if (order != 0) return (order < 0) == is_min ? a : b;
  // min(min(x, c1), c2) == min(x, min(c1, c2)).
  if (auto inner = OperandsOf(a, kind); inner && IsImmediate(b) && IsImmediate(inner->second)) {
    return MinMaxRule(kind, inner->first, FoldBinary(kind, inner->second, b));
  }
  for (int side = 0; side < 2; ++side) {
    const Expr& x = side == 0 ? a : b;
    const Expr& other = side == 0 ? b : a;
    // min(x, min(x, y)) == min(x, y).
    if (auto same = OperandsOf(other, kind)) {
      if (ir::StructuralEqual(same->first, x) || ir::StructuralEqual(same->second, x)) {
        return other;
      }
    }
    // min(x, max(x, y)) == x.
    if (auto dual = OperandsOf(other, Dual(kind))) {
      if (ir::StructuralEqual(dual->first, x) || ir::StructuralEqual(dual->second, x)) return x;
    }
  }
  return MakeBinaryNode(kind, a, b);
}

}  // namespace tunefarm::arith
