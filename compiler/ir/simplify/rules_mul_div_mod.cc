// Rules for Mul, Div/FloorDiv and Mod/FloorMod. Multiplication by constants distributes over the
// linear form; division and modulo by a positive constant split off the multiples of the
// divisor and use known bounds for the rest. Floor rules hold for every sign; truncating ones
// are applied only where the dividend is provably non-negative (where the two agree).
#include "compiler/ir/arith/int_arith.h"
#include "compiler/ir/simplify/rewriter.h"

namespace tunefarm::arith {
namespace {

using ir::DataType;
using ir::Expr;
using ir::ExprKind;

bool IsFloatOne(const Expr& e) {
  const auto* f = e.As<ir::FloatImmNode>();
  return f != nullptr && f->value == 1.0;
}

// The terms of a sum whose coefficients c divides (divided by c), and all the others.
struct DivisorSplit {
  LinearSum quotient;
  LinearSum rest;
};

DivisorSplit SplitByDivisor(const LinearSum& sum, int64_t c) {
  DivisorSplit split{LinearSum(sum.dtype()), LinearSum(sum.dtype())};
  for (const auto& t : sum.terms()) {
    if (t.coeff % c == 0) {
      split.quotient.AddTerm(t.expr, t.coeff / c);
    } else {
      split.rest.AddTerm(t.expr, t.coeff);
    }
  }
  split.rest.AddConst(sum.constant());
  return split;
}

// gcd of every coefficient and the constant.
int64_t ContentGcd(const LinearSum& sum) {
  int64_t g = sum.constant();
  for (const auto& t : sum.terms()) g = Gcd(g, t.coeff);
  return g;
}

LinearSum DivideExact(const LinearSum& sum, int64_t g) {
  LinearSum out(sum.dtype());
  for (const auto& t : sum.terms()) out.AddTerm(t.expr, t.coeff / g);
  out.AddConst(sum.constant() / g);
  return out;
}

// The quotient by c > 0 when every value in `b` gives the same one.
std::optional<int64_t> ConstQuotient(const ConstIntBound& b, int64_t c, bool floor) {
  if (b.min == kNegInf || b.max == kPosInf) return std::nullopt;
  int64_t lo = floor ? FloorDivInt(b.min, c) : b.min / c;
  int64_t hi = floor ? FloorDivInt(b.max, c) : b.max / c;
  if (lo != hi) return std::nullopt;
  return lo;
}

bool FitsType(DataType t, int64_t v) {
  ConstIntBound r = ConstIntBound::OfType(t);
  return v >= r.min && v <= r.max;
}

// q * c as an immediate of type t, when it is representable.
std::optional<Expr> Multiple(DataType t, std::optional<int64_t> q, int64_t c) {
  int64_t v;
  if (!q || __builtin_mul_overflow(*q, c, &v) || !FitsType(t, v)) return std::nullopt;
  return ir::IntImm(t, v);
}

}  // namespace

Expr Rewriter::MulRule(const Expr& a, const Expr& b) {
  DataType t = a.dtype();
  if (!IsLinearType(t)) {
    // x * 1.0 is x for every float, NaN and -0.0 included.
    if (IsFloatOne(b)) return a;
    if (IsFloatOne(a)) return b;
    return ir::MulNode::Make(a, b);
  }
  if (ir::AsConstInt(a) || ir::AsConstInt(b)) {
    LinearSum sum(t);
    Expr product = ir::MulNode::Make(a, b);
    sum.AddExpr(product, 1);
    return sum.MatchesBinary(ExprKind::kMul, a, b) ? product : sum.ToExpr();
  }
  // Coefficients move out of single-term factors: (x*2)*y is (x*y)*2.
  LinearSum sa = LinearSum::FromExpr(a), sb = LinearSum::FromExpr(b);
  bool single =
      sa.terms().size() == 1 && sa.constant() == 0 && sb.terms().size() == 1 && sb.constant() == 0;
  if (single && (sa.terms()[0].coeff != 1 || sb.terms()[0].coeff != 1)) {
    LinearSum sum(t);
    sum.AddTerm(ir::MulNode::Make(sa.terms()[0].expr, sb.terms()[0].expr),
                WrapMul(sa.terms()[0].coeff, sb.terms()[0].coeff));
    return sum.ToExpr();
  }
  return ir::MulNode::Make(a, b);
}

Expr Rewriter::DivRule(ExprKind kind, const Expr& a, const Expr& b) {
  DataType t = a.dtype();
  bool floor = kind == ExprKind::kFloorDiv;
  auto c = ir::AsConstInt(b);
  if (!t.is_int() || !c || *c <= 0) {
    if (kind == ExprKind::kDiv && t.is_float() && IsFloatOne(b)) return a;
    if (c && *c == 1 && t.is_integral()) return a;
    return MakeBinaryNode(kind, a, b);
  }
  if (*c == 1) return a;
  ConstIntBound ab = analyzer_->GetConstBound(a);
  if (auto q = ConstQuotient(ab, *c, floor)) return ir::IntImm(t, *q);
  // (x / c1) / c2 == x / (c1 * c2) for positive constants, floor and truncating alike.
  if (auto inner = OperandsOf(a, kind)) {
    auto c1 = ir::AsConstInt(inner->second);
    int64_t product;
    if (c1 && *c1 > 0 && !__builtin_mul_overflow(*c1, *c, &product) && FitsType(t, product)) {
      return Binary(kind, inner->first, ir::IntImm(t, product));
    }
  }
  // Below, truncating division equals floor division because a >= 0.
  if (!floor && ab.min < 0) return MakeBinaryNode(kind, a, b);
  DivisorSplit split = SplitByDivisor(LinearSum::FromExpr(a), *c);
  if (split.quotient.IsConst()) {
    // (g*u) / (g*v) == u / v for g > 0.
    int64_t g = Gcd(ContentGcd(split.rest), *c);
    if (g > 1) return Binary(kind, DivideExact(split.rest, g).ToExpr(), ir::IntImm(t, *c / g));
    return MakeBinaryNode(kind, a, b);
  }
  // (q*c + r) // c == q + r // c.
  Expr rest = split.rest.ToExpr();
  ConstIntBound rb = analyzer_->GetConstBound(rest);
  if (auto q = ConstQuotient(rb, *c, /*floor=*/true)) {
    split.quotient.AddConst(*q);
    return split.quotient.ToExpr();
  }
  // A truncating residual is only floor division when it is non-negative.
  if (!floor && rb.min < 0) return MakeBinaryNode(kind, a, b);
  split.quotient.AddExpr(Binary(kind, rest, b), 1);
  return split.quotient.ToExpr();
}

Expr Rewriter::ModRule(ExprKind kind, const Expr& a, const Expr& b) {
  DataType t = a.dtype();
  bool floor = kind == ExprKind::kFloorMod;
  auto c = ir::AsConstInt(b);
  if (c && t.is_integral() && (*c == 1 || (t.is_int() && *c == -1))) return ir::IntImm(t, 0);
  if (!t.is_int() || !c || *c <= 0) return MakeBinaryNode(kind, a, b);
  ConstIntBound ab = analyzer_->GetConstBound(a);
  // Within one period the remainder is a minus a known multiple of c.
  if (floor || ab.min >= 0) {
    auto base = Multiple(t, ConstQuotient(ab, *c, /*floor=*/true), *c);
    if (base) return Linear(a, *base, -1);
  }
  if (!floor && ab.min > -*c && ab.max < *c) return a;
  ModularSet m = analyzer_->GetModularSet(a);
  if ((floor || ab.min >= 0) && m.coeff % *c == 0) return ir::IntImm(t, FloorModInt(m.base, *c));
  // (x % c1) % c2 == x % c2 when c2 divides c1, floor and truncating alike.
  if (auto inner = OperandsOf(a, kind)) {
    auto c1 = ir::AsConstInt(inner->second);
    if (c1 && *c1 > 0 && *c1 % *c == 0) return Binary(kind, inner->first, b);
  }
  if (!floor && ab.min < 0) return MakeBinaryNode(kind, a, b);
  return ModOfSum(kind, a, b);
}

Expr Rewriter::ModOfSum(ExprKind kind, const Expr& a, const Expr& b) {
  DataType t = a.dtype();
  int64_t c = *ir::AsConstInt(b);
  bool floor = kind == ExprKind::kFloorMod;
  // Multiples of c vanish and large coefficients reduce (5x % 4 == x % 4): exact for floor
  // modulo, and for truncating modulo of a non-negative dividend, which is the same.
  LinearSum sum = LinearSum::FromExpr(a);
  LinearSum r(t);
  bool changed = false;
  for (const auto& term : sum.terms()) {
    int64_t reduced = term.coeff % c;
    changed = changed || reduced != term.coeff;
    r.AddTerm(term.expr, reduced);
  }
  r.AddConst(sum.constant() % c);
  changed = changed || sum.constant() % c != sum.constant();
  Expr rest = r.ToExpr();
  ConstIntBound rb = analyzer_->GetConstBound(rest);
  auto base = Multiple(t, ConstQuotient(rb, c, /*floor=*/true), c);
  if (base) return Linear(rest, *base, -1);
  if (!floor && rb.min < 0) return MakeBinaryNode(kind, a, b);
  if (changed) return Binary(kind, rest, b);
  // (g*u) % (g*v) == g * (u % v) for g > 0.
  int64_t g = Gcd(ContentGcd(r), c);
  if (g > 1) {
    Expr inner = Binary(kind, DivideExact(r, g).ToExpr(), ir::IntImm(t, c / g));
    return MulRule(inner, ir::IntImm(t, g));
  }
  return MakeBinaryNode(kind, a, b);
}

}  // namespace tunefarm::arith
