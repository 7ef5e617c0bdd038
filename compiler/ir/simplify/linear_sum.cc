#include "compiler/ir/simplify/linear_sum.h"

#include "compiler/ir/arith/int_arith.h"
#include "compiler/ir/check.h"
#include "compiler/ir/structural_equal.h"

namespace tunefarm::arith {
namespace {

using ir::DataType;
using ir::Expr;

// coeff * term as an expression, for a coefficient whose signed view is positive (or the
// type's most negative value, which has no positive counterpart and is multiplied as is).
Expr Scaled(const Expr& term, DataType t, int64_t coeff) {
  if (coeff == 1) return term;
  return ir::MulNode::Make(term, ir::IntImm(t, WrapToType(t, coeff)));
}

bool IsMostNegative(DataType t, int64_t signed_value) {
  return signed_value == TypeMinValue(DataType::Int(t.bits()));
}

// Whether ToExpr() adds (rather than subtracts) a term with coefficient c.
bool Additive(DataType t, int64_t c) {
  int64_t v = SignedView(t, c);
  return v > 0 || IsMostNegative(t, v);
}

bool IsImmOf(const Expr& e, DataType t, int64_t value) {
  const auto* imm = e.As<ir::IntImmNode>();
  return imm != nullptr && imm->value == value && e.dtype() == t;
}

// Whether `e` is structurally Scaled(term, t, coeff).
bool MatchesScaled(const Expr& e, const Expr& term, DataType t, int64_t coeff) {
  if (coeff == 1) return ir::StructuralEqual(e, term);
  const auto* mul = e.As<ir::MulNode>();
  return mul != nullptr && e.dtype() == t && IsImmOf(mul->b, t, WrapToType(t, coeff)) &&
         ir::StructuralEqual(mul->a, term);
}

// A cursor on the left-leaning Add/Sub chain that ToExpr() builds, from its root down.
struct ChainCursor {
  ir::ExprKind kind;
  const Expr* left;
  const Expr* right;

  // Moves to the node that is the left operand; false when it is not an Add or Sub of type t.
  bool Descend(DataType t) {
    const Expr& e = *left;
    if (!(e.dtype() == t)) return false;
    if (const auto* add = e.As<ir::AddNode>()) {
      *this = {ir::ExprKind::kAdd, &add->a, &add->b};
      return true;
    }
    if (const auto* sub = e.As<ir::SubNode>()) {
      *this = {ir::ExprKind::kSub, &sub->a, &sub->b};
      return true;
    }
    return false;
  }
};

}  // namespace

bool IsLinearType(DataType t) { return t.is_scalar() && (t.is_int() || t.is_uint()); }

LinearSum LinearSum::FromExpr(const Expr& e) {
  TF_CHECK(IsLinearType(e.dtype())) << "LinearSum of " << e.dtype().ToString();
  LinearSum sum(e.dtype());
  sum.AddExpr(e, 1);
  return sum;
}

void LinearSum::AddExpr(const Expr& e, int64_t scale) {
  if (scale == 0) return;
  if (auto c = ir::AsConstInt(e)) {
    AddConst(WrapMul(*c, scale));
  } else if (const auto* add = e.As<ir::AddNode>()) {
    AddExpr(add->a, scale);
    AddExpr(add->b, scale);
  } else if (const auto* sub = e.As<ir::SubNode>()) {
    AddExpr(sub->a, scale);
    AddExpr(sub->b, WrapSub(0, scale));
  } else if (const auto* mul = e.As<ir::MulNode>()) {
    if (auto cb = ir::AsConstInt(mul->b)) {
      AddExpr(mul->a, WrapMul(scale, *cb));
    } else if (auto ca = ir::AsConstInt(mul->a)) {
      AddExpr(mul->b, WrapMul(scale, *ca));
    } else {
      AddTerm(e, scale);
    }
  } else {
    AddTerm(e, scale);
  }
}

void LinearSum::AddTerm(const Expr& term, int64_t coeff) {
  coeff = WrapToType(dtype_, coeff);
  if (coeff == 0) return;
  for (size_t i = 0; i < terms_.size(); ++i) {
    if (!ir::StructuralEqual(terms_[i].expr, term)) continue;
    int64_t c = WrapToType(dtype_, WrapAdd(terms_[i].coeff, coeff));
    if (c == 0) {
      terms_.erase(terms_.begin() + static_cast<std::ptrdiff_t>(i));
    } else {
      terms_[i].coeff = c;
    }
    return;
  }
  terms_.push_back({term, coeff});
}

void LinearSum::AddConst(int64_t c) { constant_ = WrapToType(dtype_, WrapAdd(constant_, c)); }

void LinearSum::AddSum(const LinearSum& other, int64_t scale) {
  for (const auto& t : other.terms_) AddTerm(t.expr, WrapMul(t.coeff, scale));
  AddConst(WrapMul(other.constant_, scale));
}

int64_t LinearSum::CoeffOf(const Expr& term) const {
  for (const auto& t : terms_) {
    if (ir::StructuralEqual(t.expr, term)) return t.coeff;
  }
  return 0;
}

size_t LinearSum::FirstAdditive() const {
  for (size_t i = 0; i < terms_.size(); ++i) {
    if (Additive(dtype_, terms_[i].coeff)) return i;
  }
  return terms_.size();
}

Expr LinearSum::ToExpr() const {
  DataType t = dtype_;
  auto additive = [&](int64_t c) { return Additive(t, c); };
  size_t first = FirstAdditive();
  // With no term to lead, the constant leads: `k - x - y` (or `0 - x`).
  bool lead_const = first == terms_.size();
  Expr result =
      lead_const ? ir::IntImm(t, constant_) : Scaled(terms_[first].expr, t, terms_[first].coeff);
  for (size_t i = 0; i < terms_.size(); ++i) {
    if (i == first) continue;
    int64_t c = terms_[i].coeff;
    if (additive(c)) {
      result = ir::AddNode::Make(result, Scaled(terms_[i].expr, t, c));
    } else {
      result = ir::SubNode::Make(result, Scaled(terms_[i].expr, t, WrapSub(0, c)));
    }
  }
  if (lead_const || constant_ == 0) return result;
  if (additive(constant_)) return ir::AddNode::Make(result, ir::IntImm(t, constant_));
  return ir::SubNode::Make(result, ir::IntImm(t, WrapToType(t, WrapSub(0, constant_))));
}

bool LinearSum::MatchesBinary(ir::ExprKind kind, const Expr& a, const Expr& b) const {
  DataType t = dtype_;
  if (!(a.dtype() == t)) return false;
  size_t first = FirstAdditive();
  bool lead_const = first == terms_.size();
  bool has_const = !lead_const && constant_ != 0;
  size_t links = terms_.size() - (lead_const ? 0 : 1) + (has_const ? 1 : 0);
  if (links == 0) {
    // A lone scaled term is a Mul; a lone constant or unscaled term is not reported as equal.
    return !lead_const && terms_[first].coeff != 1 && kind == ir::ExprKind::kMul &&
           IsImmOf(b, t, WrapToType(t, terms_[first].coeff)) &&
           ir::StructuralEqual(a, terms_[first].expr);
  }
  ChainCursor cur{kind, &a, &b};
  bool at_root = true;
  // Checks the next link up from the bottom of the chain, walking the cursor down to it.
  auto link = [&](bool add, auto&& matches_right) {
    if (!at_root && !cur.Descend(t)) return false;
    at_root = false;
    return cur.kind == (add ? ir::ExprKind::kAdd : ir::ExprKind::kSub) && matches_right(*cur.right);
  };
  if (has_const) {
    bool add = Additive(t, constant_);
    int64_t v = add ? constant_ : WrapToType(t, WrapSub(0, constant_));
    if (!link(add, [&](const Expr& e) { return IsImmOf(e, t, v); })) return false;
  }
  for (size_t i = terms_.size(); i-- > 0;) {
    if (i == first) continue;
    int64_t c = terms_[i].coeff;
    bool add = Additive(t, c);
    int64_t k = add ? c : WrapSub(0, c);
    auto right = [&](const Expr& e) { return MatchesScaled(e, terms_[i].expr, t, k); };
    if (!link(add, right)) return false;
  }
  if (lead_const) return IsImmOf(*cur.left, t, constant_);
  return MatchesScaled(*cur.left, terms_[first].expr, t, terms_[first].coeff);
}

}  // namespace tunefarm::arith
