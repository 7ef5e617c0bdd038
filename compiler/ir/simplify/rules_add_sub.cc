// Rules for Add and Sub: integer sums go to the canonical linear form (like terms combined,
// constants collected), and x/c*c + x%c recombines to x.
#include "compiler/ir/arith/int_arith.h"
#include "compiler/ir/simplify/rewriter.h"
#include "compiler/ir/structural_equal.h"

namespace tunefarm::arith {
namespace {

using ir::Expr;
using ir::ExprKind;

// Finds a term pair (x / c) * (k*c) + (x % c) * k, for floor or truncating division alike
// (both satisfy x == (x / c) * c + x % c), and returns the sum with the pair replaced by x * k.
std::optional<LinearSum> RecombineDivMod(const LinearSum& sum) {
  const auto& terms = sum.terms();
  for (size_t i = 0; i < terms.size(); ++i) {
    ExprKind mod_kind = terms[i].expr.kind();
    if (mod_kind != ExprKind::kFloorMod && mod_kind != ExprKind::kMod) continue;
    ExprKind div_kind = mod_kind == ExprKind::kFloorMod ? ExprKind::kFloorDiv : ExprKind::kDiv;
    auto [x, c] = *OperandsOf(terms[i].expr, mod_kind);
    auto cv = ir::AsConstInt(c);
    if (!cv) continue;
    for (size_t j = 0; j < terms.size(); ++j) {
      auto div = OperandsOf(terms[j].expr, div_kind);
      if (!div || !ir::StructuralEqual(div->first, x) || !ir::StructuralEqual(div->second, c)) {
        continue;
      }
      if (WrapToType(sum.dtype(), WrapMul(terms[i].coeff, *cv)) != terms[j].coeff) continue;
      LinearSum out(sum.dtype());
      for (size_t k = 0; k < terms.size(); ++k) {
        if (k != i && k != j) out.AddTerm(terms[k].expr, terms[k].coeff);
      }
      out.AddExpr(x, terms[i].coeff);
      out.AddConst(sum.constant());
      return out;
    }
  }
  return std::nullopt;
}

}  // namespace

Expr Rewriter::Linear(const Expr& a, const Expr& b, int64_t sign) {
  LinearSum sum = LinearSum::FromExpr(a);
  sum.AddExpr(b, sign);
  while (auto recombined = RecombineDivMod(sum)) sum = *recombined;
  // Sums already in canonical form are kept, which spares rebuilding them (and lets the
  // visitor return the original node).
  ExprKind kind = sign == 1 ? ExprKind::kAdd : ExprKind::kSub;
  if (sum.MatchesBinary(kind, a, b)) return MakeBinaryNode(kind, a, b);
  return sum.ToExpr();
}

Expr Rewriter::AddRule(const Expr& a, const Expr& b) {
  if (IsLinearType(a.dtype())) return Linear(a, b, 1);
  // Floats are not reassociated, and x + 0.0 is not x when x is -0.0.
  return ir::AddNode::Make(a, b);
}

Expr Rewriter::SubRule(const Expr& a, const Expr& b) {
  if (IsLinearType(a.dtype())) return Linear(a, b, -1);
  return ir::SubNode::Make(a, b);
}

}  // namespace tunefarm::arith
