// Rules for And, Or, Not and Select: constants decide, duplicates and complements collapse,
// and the negation of an integer comparison becomes the opposite comparison.
#include <tuple>

#include "compiler/ir/simplify/const_fold.h"
#include "compiler/ir/simplify/rewriter.h"
#include "compiler/ir/structural_equal.h"

namespace tunefarm::arith {
namespace {

using ir::DataType;
using ir::Expr;
using ir::ExprKind;

}  // namespace

Expr Rewriter::AndOrRule(ExprKind kind, const Expr& a, const Expr& b) {
  bool is_and = kind == ExprKind::kAnd;
  if (a.dtype().is_vector()) return MakeBinaryNode(kind, a, b);
  // true && b == b, false && b == false; false || b == b, true || b == true.
  if (auto ca = ir::AsConstInt(a)) return (*ca != 0) == is_and ? b : a;
  if (auto cb = ir::AsConstInt(b)) return (*cb != 0) == is_and ? a : b;
  if (ir::StructuralEqual(a, b)) return a;
  // x && !x == false, x || !x == true.
  if (ir::StructuralEqual(NotRule(a), b)) return ir::BoolImm(!is_and);
  return MakeBinaryNode(kind, a, b);
}

Expr Rewriter::NotRule(const Expr& a) {
  if (Expr folded = FoldNot(a); folded.defined()) return folded;
  if (const auto* b = a.As<ir::BroadcastNode>()) {
    return ir::BroadcastNode::Make(NotRule(b->value), b->lanes);
  }
  if (const auto* n = a.As<ir::NotNode>()) return n->a;
  if (a.dtype().is_scalar() && analyzer_->IsAssumed(a)) return ir::BoolImm(false);
  // !(x < y) is y <= x only without NaN, so floats keep the Not; != is exact for all types.
  auto flip = [&](ExprKind from, ExprKind to, bool swap) -> Expr {
    auto ops = OperandsOf(a, from);
    if (!ops) return Expr();
    if (ops->first.dtype().is_float() && from != ExprKind::kEQ && from != ExprKind::kNE) {
      return Expr();
    }
    return swap ? CompareRule(to, ops->second, ops->first)
                : CompareRule(to, ops->first, ops->second);
  };
  for (auto [from, to, swap] : {std::tuple{ExprKind::kLT, ExprKind::kLE, true},
                                std::tuple{ExprKind::kLE, ExprKind::kLT, true},
                                std::tuple{ExprKind::kGT, ExprKind::kGE, true},
                                std::tuple{ExprKind::kGE, ExprKind::kGT, true},
                                std::tuple{ExprKind::kEQ, ExprKind::kNE, false},
                                std::tuple{ExprKind::kNE, ExprKind::kEQ, false}}) {
    if (Expr r = flip(from, to, swap); r.defined()) return r;
  }
  return ir::NotNode::Make(a);
}

Expr Rewriter::SelectRule(const Expr& c, const Expr& t, const Expr& f) {
  if (auto v = ir::AsConstInt(c)) return *v != 0 ? t : f;
  if (const auto* b = c.As<ir::BroadcastNode>()) {
    if (auto v = ir::AsConstInt(b->value)) return *v != 0 ? t : f;
  }
  if (ir::StructuralEqual(t, f)) return t;
  return ir::SelectNode::Make(c, t, f);
}

}  // namespace tunefarm::arith
