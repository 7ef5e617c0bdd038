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

Expr LinearSum::ToExpr() const {
  DataType t = dtype_;
  auto additive = [&](int64_t c) {
    int64_t v = SignedView(t, c);
    return v > 0 || IsMostNegative(t, v);
  };
  size_t first = terms_.size();
  for (size_t i = 0; i < terms_.size(); ++i) {
    if (additive(terms_[i].coeff)) {
      first = i;
      break;
    }
  }
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

}  // namespace tunefarm::arith
