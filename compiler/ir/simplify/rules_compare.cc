// Rules for comparisons. GT/GE turn into LT/LE with swapped operands. Integer comparisons are
// decided by bounds where possible; otherwise a signed comparison becomes the canonical
// `positive terms OP negative terms + k` of the difference of its sides, which cancels
// common terms (a + c < b + c is a < b) and divides out common factors (x*4 < 8 is x < 2).
#include "compiler/ir/arith/int_arith.h"
#include "compiler/ir/simplify/rewriter.h"
#include "compiler/ir/structural_equal.h"

namespace tunefarm::arith {
namespace {

using ir::DataType;
using ir::Expr;
using ir::ExprKind;

// Decides `a kind b` (kind LT, LE, EQ or NE) from bounds of a and b, when they allow it.
std::optional<bool> DecideByBounds(ExprKind kind, const ConstIntBound& a, const ConstIntBound& b) {
  switch (kind) {
    case ExprKind::kLT:
      if (a.max < b.min) return true;
      if (a.min >= b.max) return false;
      return std::nullopt;
    case ExprKind::kLE:
      if (a.max <= b.min) return true;
      if (a.min > b.max) return false;
      return std::nullopt;
    case ExprKind::kEQ:
    case ExprKind::kNE:
      if (a.max < b.min || a.min > b.max) return kind == ExprKind::kNE;
      if (a.IsPoint() && b.IsPoint() && a.min == b.min) return kind == ExprKind::kEQ;
      return std::nullopt;
    default:
      return std::nullopt;
  }
}

// Divides `d OP 0` by the gcd g of d's coefficients: for d = g*e + k, `d < 0` is
// `e + floor(k/g) < 0`, `d <= 0` is `e + ceil(k/g) <= 0`, and `d == 0` needs g | k.
// Returns a decided value when the division shows EQ/NE cannot hold or always holds.
std::optional<bool> DivideByGcd(ExprKind kind, LinearSum* d) {
  int64_t g = 0;
  for (const auto& t : d->terms()) g = Gcd(g, t.coeff);
  if (g <= 1) return std::nullopt;
  int64_t k = d->constant();
  int64_t k_new;
  if (kind == ExprKind::kLT) {
    k_new = FloorDivInt(k, g);
  } else if (kind == ExprKind::kLE) {
    k_new = -FloorDivInt(-k, g);
  } else {
    if (k % g != 0) return kind == ExprKind::kNE;
    k_new = k / g;
  }
  LinearSum out(d->dtype());
  for (const auto& t : d->terms()) out.AddTerm(t.expr, t.coeff / g);
  out.AddConst(k_new);
  *d = out;
  return std::nullopt;
}

// `d OP 0` as `positive part OP negative part`. The constant joins the right side (`i < n - 1`)
// unless the left has no terms (`3 < x`).
Expr SplitSides(ExprKind kind, const LinearSum& d) {
  LinearSum lhs(d.dtype()), rhs(d.dtype());
  for (const auto& t : d.terms()) {
    if (t.coeff > 0) {
      lhs.AddTerm(t.expr, t.coeff);
    } else {
      rhs.AddTerm(t.expr, WrapSub(0, t.coeff));
    }
  }
  if (lhs.IsConst()) {
    lhs.AddConst(d.constant());
  } else {
    rhs.AddConst(WrapSub(0, d.constant()));
  }
  return MakeBinaryNode(kind, lhs.ToExpr(), rhs.ToExpr());
}

}  // namespace

Expr Rewriter::CompareRule(ExprKind kind, const Expr& a, const Expr& b) {
  if (kind == ExprKind::kGT) return CompareRule(ExprKind::kLT, b, a);
  if (kind == ExprKind::kGE) return CompareRule(ExprKind::kLE, b, a);
  DataType t = a.dtype();
  // Not for floats: NaN == NaN is false.
  if (!t.is_integral() || t.is_vector()) return MakeBinaryNode(kind, a, b);
  if (ir::StructuralEqual(a, b)) return ir::BoolImm(kind == ExprKind::kEQ || kind == ExprKind::kLE);
  auto decided = DecideByBounds(kind, analyzer_->GetConstBound(a), analyzer_->GetConstBound(b));
  if (decided) return ir::BoolImm(*decided);
  // Differences of unsigned values wrap; only signed comparisons are rearranged.
  if (!t.is_int()) return MakeBinaryNode(kind, a, b);
  LinearSum d = LinearSum::FromExpr(a);
  d.AddExpr(b, -1);
  ConstIntBound zero = ConstIntBound::Point(0);
  ConstIntBound bd =
      d.IsConst() ? ConstIntBound::Point(d.constant()) : analyzer_->GetConstBound(d.ToExpr());
  if (auto r = DecideByBounds(kind, bd, zero)) return ir::BoolImm(*r);
  if (kind == ExprKind::kEQ || kind == ExprKind::kNE) {
    // A difference that is never a multiple of its modulus is never zero (2*x == 1).
    ModularSet m = analyzer_->GetModularSet(d.ToExpr());
    if (m.coeff > 0 && m.base != 0) return ir::BoolImm(kind == ExprKind::kNE);
  }
  if (auto r = DivideByGcd(kind, &d)) return ir::BoolImm(*r);
  return SplitSides(kind, d);
}

}  // namespace tunefarm::arith
