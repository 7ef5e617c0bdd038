#include "compiler/ir/arith/interval_set.h"

#include <algorithm>
#include <optional>

#include "compiler/ir/arith/analyzer.h"
#include "compiler/ir/arith/int_arith.h"
#include "compiler/ir/arith/var_use.h"
#include "compiler/ir/check.h"
#include "compiler/ir/functor.h"
#include "compiler/ir/simplify/simplify.h"
#include "compiler/ir/structural_equal.h"

namespace tunefarm::arith {
namespace {

using ir::DataType;
using ir::Expr;
using ir::ExprKind;

// False when a and b are constants and kind(a, b) computed exactly lies outside their type.
bool FitsType(ExprKind kind, const Expr& a, const Expr& b) {
  auto x = ir::AsConstInt(a), y = ir::AsConstInt(b);
  if (!x || !y || !a.dtype().is_integral()) return true;
  int64_t r = 0;
  bool overflow = false;
  switch (kind) {
    case ExprKind::kAdd:
      overflow = __builtin_add_overflow(*x, *y, &r);
      break;
    case ExprKind::kSub:
      overflow = __builtin_sub_overflow(*x, *y, &r);
      break;
    case ExprKind::kMul:
      overflow = __builtin_mul_overflow(*x, *y, &r);
      break;
    case ExprKind::kDiv:
    case ExprKind::kFloorDiv:
      overflow = *y == -1 && *x == TypeMinValue(a.dtype());
      break;
    default:
      return true;
  }
  if (overflow) return false;
  if (kind != ExprKind::kAdd && kind != ExprKind::kSub && kind != ExprKind::kMul) return true;
  return r >= TypeMinValue(a.dtype()) && r <= TypeMaxValue(a.dtype());
}

Expr MakeArith(ExprKind kind, const Expr& a, const Expr& b) {
  switch (kind) {
    case ExprKind::kAdd:
      return ir::AddNode::Make(a, b);
    case ExprKind::kSub:
      return ir::SubNode::Make(a, b);
    case ExprKind::kMul:
      return ir::MulNode::Make(a, b);
    case ExprKind::kDiv:
      return ir::DivNode::Make(a, b);
    case ExprKind::kMod:
      return ir::ModNode::Make(a, b);
    case ExprKind::kFloorDiv:
      return ir::FloorDivNode::Make(a, b);
    case ExprKind::kFloorMod:
      return ir::FloorModNode::Make(a, b);
    case ExprKind::kMin:
      return ir::MinNode::Make(a, b);
    case ExprKind::kMax:
      return ir::MaxNode::Make(a, b);
    default:
      TF_UNREACHABLE() << "MakeArith of kind " << static_cast<int>(kind);
  }
}

// Computes the interval of each node from its operands' intervals, simplifying bounds as it
// goes so that later steps (such as the one-period test of modulo) see canonical forms.
class SetEvaluator : public ir::ExprFunctor<IntervalSet(const Expr&)> {
 public:
  SetEvaluator(const VarIntervalMap& dom, Analyzer* analyzer) : dom_(dom), analyzer_(analyzer) {}

  IntervalSet VisitExpr(const Expr& e) override {
    // Only integer values have intervals here (floats would need rounding-aware bounds).
    if (!e.dtype().is_integral()) return IntervalSet::Everything();
    const Expr* saved = current_;
    current_ = &e;
    IntervalSet r = ExprFunctor::VisitExpr(e);
    current_ = saved;
    return r;
  }

 protected:
  IntervalSet VisitExprDefault_(const ir::ExprNode* op) override {
    if (!op->dtype.is_bool()) return IntervalSet::Everything();
    return {ir::IntImm(DataType::Bool(), 0), ir::IntImm(DataType::Bool(), 1)};
  }
  IntervalSet VisitExpr_(const ir::IntImmNode* op) override { return Self(op); }
  IntervalSet VisitExpr_(const ir::VarNode* op) override {
    if (auto it = lets_.find(op); it != lets_.end()) return it->second;
    if (auto it = dom_.find(op); it != dom_.end()) return it->second;
    // Bounds are scalars that hold for every lane; a vector symbol has no scalar bound.
    if (op->dtype.is_vector()) return IntervalSet::Everything();
    return Self(op);
  }
  IntervalSet VisitExpr_(const ir::AddNode* op) override {
    IntervalSet a = VisitExpr(op->a), b = VisitExpr(op->b);
    return {Combine(ExprKind::kAdd, a.min, b.min), Combine(ExprKind::kAdd, a.max, b.max)};
  }
  IntervalSet VisitExpr_(const ir::SubNode* op) override {
    IntervalSet a = VisitExpr(op->a), b = VisitExpr(op->b);
    if (a.IsSinglePoint() && b.IsSinglePoint()) return Point(ExprKind::kSub, a, b);
    // A difference of unsigned values may wrap below zero.
    if (op->dtype.is_uint()) return IntervalSet::Everything();
    return {Combine(ExprKind::kSub, a.min, b.max), Combine(ExprKind::kSub, a.max, b.min)};
  }
  IntervalSet VisitExpr_(const ir::MulNode* op) override {
    return MulSet(VisitExpr(op->a), VisitExpr(op->b));
  }
  IntervalSet VisitExpr_(const ir::FloorDivNode* op) override {
    return DivSet(ExprKind::kFloorDiv, VisitExpr(op->a), VisitExpr(op->b));
  }
  IntervalSet VisitExpr_(const ir::DivNode* op) override {
    if (!op->dtype.is_integral()) return IntervalSet::Everything();
    return DivSet(ExprKind::kDiv, VisitExpr(op->a), VisitExpr(op->b));
  }
  IntervalSet VisitExpr_(const ir::FloorModNode* op) override {
    return ModSet(ExprKind::kFloorMod, VisitExpr(op->a), VisitExpr(op->b));
  }
  IntervalSet VisitExpr_(const ir::ModNode* op) override {
    if (!op->dtype.is_integral()) return IntervalSet::Everything();
    return ModSet(ExprKind::kMod, VisitExpr(op->a), VisitExpr(op->b));
  }
  IntervalSet VisitExpr_(const ir::MinNode* op) override {
    IntervalSet a = VisitExpr(op->a), b = VisitExpr(op->b);
    return {Combine(ExprKind::kMin, a.min, b.min), Loosest(ExprKind::kMin, a.max, b.max)};
  }
  IntervalSet VisitExpr_(const ir::MaxNode* op) override {
    IntervalSet a = VisitExpr(op->a), b = VisitExpr(op->b);
    return {Loosest(ExprKind::kMax, a.min, b.min), Combine(ExprKind::kMax, a.max, b.max)};
  }
  IntervalSet VisitExpr_(const ir::SelectNode* op) override {
    return Hull(VisitExpr(op->true_value), VisitExpr(op->false_value));
  }
  IntervalSet VisitExpr_(const ir::CallNode* op) override {
    if (op->op != ir::Intrinsic::kIfThenElse) return IntervalSet::Everything();
    return Hull(VisitExpr(op->args[1]), VisitExpr(op->args[2]));
  }
  IntervalSet VisitExpr_(const ir::CastNode* op) override;
  IntervalSet VisitExpr_(const ir::LetNode* op) override {
    IntervalSet value = VisitExpr(op->value);
    std::optional<IntervalSet> saved;
    if (auto it = lets_.find(op->var.get()); it != lets_.end()) saved = it->second;
    lets_[op->var.get()] = value;
    IntervalSet r = VisitExpr(op->body);
    if (saved) {
      lets_[op->var.get()] = *saved;
    } else {
      lets_.erase(op->var.get());
    }
    return r;
  }
  IntervalSet VisitExpr_(const ir::BroadcastNode* op) override { return VisitExpr(op->value); }
  IntervalSet VisitExpr_(const ir::RampNode* op) override {
    DataType t = op->base.dtype();
    IntervalSet lanes{ir::IntImm(t, 0), ir::IntImm(t, op->lanes - 1)};
    IntervalSet offsets = MulSet(lanes, VisitExpr(op->stride));
    IntervalSet base = VisitExpr(op->base);
    return {Combine(ExprKind::kAdd, base.min, offsets.min),
            Combine(ExprKind::kAdd, base.max, offsets.max)};
  }

 private:
  IntervalSet Self(const ir::ExprNode* op) {
    TF_CHECK(current_ != nullptr && current_->get() == op) << "SetEvaluator: Self outside visit";
    return IntervalSet::SinglePoint(*current_);
  }
  Expr S(const Expr& e) { return e.defined() ? analyzer_->Simplify(e) : e; }
  // kind(a, b), or undefined (unbounded) when either is. A bound that would leave its type's
  // range (as a type's largest value plus one) is given up rather than wrapped.
  Expr Combine(ExprKind kind, const Expr& a, const Expr& b) {
    if (!a.defined() || !b.defined() || !FitsType(kind, a, b)) return Expr();
    return S(MakeArith(kind, a, b));
  }
  // kind(a, b) where an undefined operand means the other bound decides (min of a bound and
  // +inf is the bound).
  Expr Loosest(ExprKind kind, const Expr& a, const Expr& b) {
    if (!a.defined()) return b;
    if (!b.defined()) return a;
    return S(MakeArith(kind, a, b));
  }
  IntervalSet Point(ExprKind kind, const IntervalSet& a, const IntervalSet& b) {
    return IntervalSet::SinglePoint(S(MakeArith(kind, a.min, b.min)));
  }
  IntervalSet Hull(const IntervalSet& a, const IntervalSet& b) {
    return {Combine(ExprKind::kMin, a.min, b.min), Combine(ExprKind::kMax, a.max, b.max)};
  }
  IntervalSet MulSet(IntervalSet a, IntervalSet b);
  IntervalSet DivSet(ExprKind kind, const IntervalSet& a, const IntervalSet& b);
  IntervalSet ModSet(ExprKind kind, const IntervalSet& a, const IntervalSet& b);

  const VarIntervalMap& dom_;
  VarIntervalMap lets_;
  Analyzer* analyzer_;
  const Expr* current_ = nullptr;
};

IntervalSet SetEvaluator::MulSet(IntervalSet a, IntervalSet b) {
  if (a.IsSinglePoint() && b.IsSinglePoint()) return Point(ExprKind::kMul, a, b);
  if (a.IsSinglePoint()) std::swap(a, b);
  if (b.IsSinglePoint()) {
    const Expr& p = b.min;
    if (ir::IsConstInt(p, 0)) return IntervalSet::SinglePoint(p);
    // Scaling by a factor of known sign maps bounds to bounds (flipped when negative).
    Analyzer::ConstBound sign = analyzer_->GetConstBound(p);
    if (sign.min >= 0)
      return {Combine(ExprKind::kMul, a.min, p), Combine(ExprKind::kMul, a.max, p)};
    if (sign.max <= 0)
      return {Combine(ExprKind::kMul, a.max, p), Combine(ExprKind::kMul, a.min, p)};
    return IntervalSet::Everything();
  }
  if (!a.min.defined() || !a.max.defined() || !b.min.defined() || !b.max.defined()) {
    return IntervalSet::Everything();
  }
  auto ca = ir::AsConstInt(a.min), cb = ir::AsConstInt(a.max);
  auto cc = ir::AsConstInt(b.min), cd = ir::AsConstInt(b.max);
  if (ca && cb && cc && cd) {
    int64_t p[] = {InfMul(*ca, *cc), InfMul(*ca, *cd), InfMul(*cb, *cc), InfMul(*cb, *cd)};
    auto [lo, hi] = std::minmax_element(std::begin(p), std::end(p));
    ConstIntBound range = ConstIntBound::OfType(a.min.dtype());
    if (*lo <= range.min || *hi >= range.max) return IntervalSet::Everything();
    return {ir::IntImm(a.min.dtype(), *lo), ir::IntImm(a.min.dtype(), *hi)};
  }
  // Products of non-negative ranges grow with both factors.
  if (analyzer_->GetConstBound(a.min).min >= 0 && analyzer_->GetConstBound(b.min).min >= 0) {
    return {Combine(ExprKind::kMul, a.min, b.min), Combine(ExprKind::kMul, a.max, b.max)};
  }
  return IntervalSet::Everything();
}

IntervalSet SetEvaluator::DivSet(ExprKind kind, const IntervalSet& a, const IntervalSet& b) {
  if (a.IsSinglePoint() && b.IsSinglePoint()) return Point(kind, a, b);
  if (!b.IsSinglePoint()) return IntervalSet::Everything();
  const Expr& p = b.min;
  Analyzer::ConstBound sign = analyzer_->GetConstBound(p);
  // Floor and truncating division by a positive divisor are non-decreasing in the dividend.
  if (sign.min > 0) return {Combine(kind, a.min, p), Combine(kind, a.max, p)};
  if (sign.max < 0) return {Combine(kind, a.max, p), Combine(kind, a.min, p)};
  return IntervalSet::Everything();
}

IntervalSet SetEvaluator::ModSet(ExprKind kind, const IntervalSet& a, const IntervalSet& b) {
  if (a.IsSinglePoint() && b.IsSinglePoint()) return Point(kind, a, b);
  if (!b.IsSinglePoint()) return IntervalSet::Everything();
  const Expr& p = b.min;
  DataType t = p.dtype();
  bool floor = kind == ExprKind::kFloorMod;
  Analyzer::ConstBound sign = analyzer_->GetConstBound(p);
  if (sign.max < 0 && floor) return {S(ir::AddNode::Make(p, ir::IntImm(t, 1))), ir::IntImm(t, 0)};
  if (sign.min <= 0) return IntervalSet::Everything();
  bool nonneg = a.min.defined() && analyzer_->GetConstBound(a.min).min >= 0;
  // Within one period the remainder is the dividend shifted by a fixed multiple of p.
  if ((floor || nonneg) && a.min.defined() && a.max.defined()) {
    ExprKind div = floor ? ExprKind::kFloorDiv : ExprKind::kDiv;
    Expr q_min = S(MakeArith(div, a.min, p)), q_max = S(MakeArith(div, a.max, p));
    if (ir::StructuralEqual(q_min, q_max)) {
      Expr base = ir::MulNode::Make(q_min, p);
      return {S(ir::SubNode::Make(a.min, base)), S(ir::SubNode::Make(a.max, base))};
    }
  }
  Expr top = S(ir::SubNode::Make(p, ir::IntImm(t, 1)));
  if (floor || nonneg) return {ir::IntImm(t, 0), top};
  Expr bottom = S(ir::SubNode::Make(ir::IntImm(t, 1), p));
  bool nonpos = a.max.defined() && analyzer_->GetConstBound(a.max).max <= 0;
  return {bottom, nonpos ? ir::IntImm(t, 0) : top};
}

IntervalSet SetEvaluator::VisitExpr_(const ir::CastNode* op) {
  DataType from = op->value.dtype(), to = op->dtype;
  IntervalSet v = VisitExpr(op->value);
  auto cast = [&](const Expr& e) { return e.defined() ? S(ir::CastNode::Make(to, e)) : e; };
  if (v.IsSinglePoint()) return IntervalSet::SinglePoint(cast(v.min));
  if (!from.is_integral() || !to.is_integral()) return IntervalSet::Everything();
  ConstIntBound src = ConstIntBound::OfType(from), dst = ConstIntBound::OfType(to);
  // A cast that can represent every source value keeps the order, so bounds map to bounds.
  if (src.min >= dst.min && src.max <= dst.max) return {cast(v.min), cast(v.max)};
  if (!v.min.defined() || !v.max.defined()) return IntervalSet::Everything();
  ConstIntBound lo = analyzer_->GetConstBound(v.min), hi = analyzer_->GetConstBound(v.max);
  if (lo.min < dst.min || hi.max > dst.max) return IntervalSet::Everything();
  return {cast(v.min), cast(v.max)};
}

// Domains may refer to other relaxed variables (j in [0, i] with i relaxed too); bounds that
// still mention one are relaxed again, a few rounds at most, then given up as unbounded.
IntervalSet RelaxDependentBounds(SetEvaluator* ev, IntervalSet s, const VarIntervalMap& dom) {
  auto depends = [&](const Expr& e) {
    return e.defined() && UsesVar(e, [&](const ir::VarNode* v) { return dom.count(v) != 0; });
  };
  constexpr int kMaxRounds = 4;
  for (int round = 0; round < kMaxRounds; ++round) {
    bool min_dep = depends(s.min), max_dep = depends(s.max);
    if (!min_dep && !max_dep) return s;
    if (min_dep) s.min = ev->VisitExpr(s.min).min;
    if (max_dep) s.max = ev->VisitExpr(s.max).max;
  }
  if (depends(s.min)) s.min = Expr();
  if (depends(s.max)) s.max = Expr();
  return s;
}

Expr MinusOnePlus(const Expr& a, const Expr& b) {
  return ir::SubNode::Make(ir::AddNode::Make(a, b), ir::IntImm(a.dtype(), 1));
}

}  // namespace

IntervalSet IntervalSet::SinglePoint(Expr v) { return {v, v}; }

IntervalSet IntervalSet::FromRange(const ir::Range& r) {
  return {Simplify(r.min), Simplify(MinusOnePlus(r.min, r.extent))};
}

IntervalSet IntervalSet::Everything() { return {}; }

bool IntervalSet::IsSinglePoint() const {
  return min.defined() && max.defined() && (min.same_as(max) || ir::StructuralEqual(min, max));
}

bool IntervalSet::IsEverything() const { return !min.defined() && !max.defined(); }

IntervalSet EvalSet(const Expr& e, const VarIntervalMap& dom) { return EvalSet(e, dom, nullptr); }

IntervalSet EvalSet(const Expr& e, const VarIntervalMap& dom, Analyzer* analyzer) {
  Analyzer local;
  if (analyzer == nullptr) analyzer = &local;
  SetEvaluator ev(dom, analyzer);
  return RelaxDependentBounds(&ev, ev.VisitExpr(e), dom);
}

IntervalSet EvalSet(const ir::Range& r, const VarIntervalMap& dom) {
  Analyzer analyzer;
  IntervalSet lo = EvalSet(r.min, dom, &analyzer);
  IntervalSet hi = EvalSet(MinusOnePlus(r.min, r.extent), dom, &analyzer);
  return {lo.min, hi.max};
}

IntervalSet Union(const IntervalSet& a, const IntervalSet& b) {
  IntervalSet r;
  if (a.min.defined() && b.min.defined()) r.min = Simplify(ir::MinNode::Make(a.min, b.min));
  if (a.max.defined() && b.max.defined()) r.max = Simplify(ir::MaxNode::Make(a.max, b.max));
  return r;
}

IntervalSet Intersect(const IntervalSet& a, const IntervalSet& b) {
  IntervalSet r{a.min.defined() ? a.min : b.min, a.max.defined() ? a.max : b.max};
  if (a.min.defined() && b.min.defined()) r.min = Simplify(ir::MaxNode::Make(a.min, b.min));
  if (a.max.defined() && b.max.defined()) r.max = Simplify(ir::MinNode::Make(a.max, b.max));
  return r;
}

ir::Range ToRange(const IntervalSet& s) {
  TF_CHECK(s.HasLowerBound() && s.HasUpperBound()) << "ToRange of an unbounded interval";
  Expr min = Simplify(s.min);
  Expr extent = ir::AddNode::Make(ir::SubNode::Make(s.max, min), ir::IntImm(min.dtype(), 1));
  return ir::Range::FromMinExtent(min, Simplify(extent));
}

}  // namespace tunefarm::arith
