#include "compiler/ir/arith/const_int_bound.h"

#include <algorithm>
#include <cstdlib>
#include <initializer_list>
#include <optional>

#include "compiler/ir/functor.h"

namespace tunefarm::arith {
namespace {

using ir::Expr;

int64_t MinOf(std::initializer_list<int64_t> v) { return std::min(v); }
int64_t MaxOf(std::initializer_list<int64_t> v) { return std::max(v); }

ConstIntBound MulBound(const ConstIntBound& a, const ConstIntBound& b) {
  int64_t p1 = InfMul(a.min, b.min), p2 = InfMul(a.min, b.max);
  int64_t p3 = InfMul(a.max, b.min), p4 = InfMul(a.max, b.max);
  return {MinOf({p1, p2, p3, p4}), MaxOf({p1, p2, p3, p4})};
}

// floor(a / b) for b in [b.min, b.max] with b.min > 0: largest magnitude at the smallest divisor.
ConstIntBound FloorDivPositive(const ConstIntBound& a, const ConstIntBound& b) {
  int64_t lo =
      a.min >= 0 ? (b.max == kPosInf ? 0 : InfFloorDiv(a.min, b.max)) : InfFloorDiv(a.min, b.min);
  int64_t hi =
      a.max >= 0 ? InfFloorDiv(a.max, b.min) : (b.max == kPosInf ? -1 : InfFloorDiv(a.max, b.max));
  return {lo, hi};
}

ConstIntBound TruncDivPositive(const ConstIntBound& a, const ConstIntBound& b) {
  int64_t lo =
      a.min >= 0 ? (b.max == kPosInf ? 0 : InfTruncDiv(a.min, b.max)) : InfTruncDiv(a.min, b.min);
  int64_t hi =
      a.max >= 0 ? InfTruncDiv(a.max, b.min) : (b.max == kPosInf ? 0 : InfTruncDiv(a.max, b.max));
  return {lo, hi};
}

ConstIntBound Negate(const ConstIntBound& a) { return {InfNeg(a.max), InfNeg(a.min)}; }

// Division by a divisor range that excludes zero; a divisor range with zero bounds nothing.
template <typename PositiveDiv>
ConstIntBound DivBound(const ConstIntBound& a, const ConstIntBound& b, PositiveDiv div) {
  if (b.min > 0) return div(a, b);
  // a / b == (-a) / (-b) for both floor and truncating division.
  if (b.max < 0) return div(Negate(a), Negate(b));
  return ConstIntBound::Everything();
}

ConstIntBound FloorModBound(const ConstIntBound& a, const ConstIntBound& b) {
  if (b.IsPoint() && b.min > 0 && a.min != kNegInf && a.max != kPosInf &&
      FloorDivInt(a.min, b.min) == FloorDivInt(a.max, b.min)) {
    return {FloorModInt(a.min, b.min), FloorModInt(a.max, b.min)};
  }
  if (b.min > 0) {
    ConstIntBound r{0, b.max == kPosInf ? kPosInf : b.max - 1};
    if (a.min >= 0) r.max = std::min(r.max, a.max);
    return r;
  }
  if (b.max < 0) return {b.min == kNegInf ? kNegInf : b.min + 1, 0};
  return ConstIntBound::Everything();
}

ConstIntBound TruncModBound(const ConstIntBound& a, const ConstIntBound& b) {
  if (b.min <= 0 && b.max >= 0) return ConstIntBound::Everything();
  // |result| < |b|, and the result has the sign of a.
  auto magnitude = [](int64_t v) { return (v == kNegInf || v == kPosInf) ? kPosInf : std::abs(v); };
  int64_t m = std::max(magnitude(b.min), magnitude(b.max));
  int64_t lim = m == kPosInf ? kPosInf : m - 1;
  if (a.min >= 0) return {0, std::min(a.max, lim)};
  if (a.max <= 0) return {std::max(a.min, InfNeg(lim)), 0};
  return {InfNeg(lim), lim};
}

class BoundEvaluator : public ir::ExprFunctor<ConstIntBound(const Expr&)> {
 public:
  explicit BoundEvaluator(const ConstIntBoundMap& vars) : vars_(vars) {}

  ConstIntBound VisitExpr(const Expr& e) override {
    ConstIntBound r = ExprFunctor::VisitExpr(e);
    ConstIntBound type_range = ConstIntBound::OfType(e.dtype());
    // Signed arithmetic does not overflow by assumption; unsigned arithmetic wraps, so a result
    // outside the type's range means wrapping may have happened and nothing is known.
    if (e.dtype().is_uint() && !(r.min >= type_range.min && r.max <= type_range.max)) {
      return type_range;
    }
    return r.Intersect(type_range);
  }

 protected:
  ConstIntBound VisitExprDefault_(const ir::ExprNode* op) override {
    return ConstIntBound::OfType(op->dtype);
  }
  ConstIntBound VisitExpr_(const ir::IntImmNode* op) override {
    if (op->dtype.is_uint() && op->value < 0) return ConstIntBound::OfType(op->dtype);
    return ConstIntBound::Point(op->value);
  }
  ConstIntBound VisitExpr_(const ir::VarNode* op) override {
    if (auto it = lets_.find(op); it != lets_.end()) return it->second;
    if (auto it = vars_.find(op); it != vars_.end()) return it->second;
    return ConstIntBound::OfType(op->dtype);
  }
  ConstIntBound VisitExpr_(const ir::AddNode* op) override {
    ConstIntBound a = VisitExpr(op->a), b = VisitExpr(op->b);
    return {InfAdd(a.min, b.min), InfAdd(a.max, b.max)};
  }
  ConstIntBound VisitExpr_(const ir::SubNode* op) override {
    ConstIntBound a = VisitExpr(op->a), b = VisitExpr(op->b);
    return {InfAdd(a.min, InfNeg(b.max)), InfAdd(a.max, InfNeg(b.min))};
  }
  ConstIntBound VisitExpr_(const ir::MulNode* op) override {
    return MulBound(VisitExpr(op->a), VisitExpr(op->b));
  }
  ConstIntBound VisitExpr_(const ir::FloorDivNode* op) override {
    return DivBound(VisitExpr(op->a), VisitExpr(op->b), FloorDivPositive);
  }
  ConstIntBound VisitExpr_(const ir::DivNode* op) override {
    return DivBound(VisitExpr(op->a), VisitExpr(op->b), TruncDivPositive);
  }
  ConstIntBound VisitExpr_(const ir::FloorModNode* op) override {
    return FloorModBound(VisitExpr(op->a), VisitExpr(op->b));
  }
  ConstIntBound VisitExpr_(const ir::ModNode* op) override {
    return TruncModBound(VisitExpr(op->a), VisitExpr(op->b));
  }
  ConstIntBound VisitExpr_(const ir::MinNode* op) override {
    ConstIntBound a = VisitExpr(op->a), b = VisitExpr(op->b);
    return {std::min(a.min, b.min), std::min(a.max, b.max)};
  }
  ConstIntBound VisitExpr_(const ir::MaxNode* op) override {
    ConstIntBound a = VisitExpr(op->a), b = VisitExpr(op->b);
    return {std::max(a.min, b.min), std::max(a.max, b.max)};
  }
  ConstIntBound VisitExpr_(const ir::SelectNode* op) override {
    return VisitExpr(op->true_value).Union(VisitExpr(op->false_value));
  }
  ConstIntBound VisitExpr_(const ir::CallNode* op) override {
    if (op->op == ir::Intrinsic::kIfThenElse) {
      return VisitExpr(op->args[1]).Union(VisitExpr(op->args[2]));
    }
    return ConstIntBound::OfType(op->dtype);
  }
  ConstIntBound VisitExpr_(const ir::CastNode* op) override {
    ConstIntBound target = ConstIntBound::OfType(op->dtype);
    if (!op->value.dtype().is_integral() || !op->dtype.is_integral()) return target;
    ConstIntBound v = VisitExpr(op->value);
    // A value that fits the target type is unchanged by the cast.
    return (v.min >= target.min && v.max <= target.max) ? v : target;
  }
  ConstIntBound VisitExpr_(const ir::LetNode* op) override {
    ConstIntBound value = VisitExpr(op->value);
    std::optional<ConstIntBound> saved;
    if (auto it = lets_.find(op->var.get()); it != lets_.end()) saved = it->second;
    lets_[op->var.get()] = value;
    ConstIntBound r = VisitExpr(op->body);
    if (saved) {
      lets_[op->var.get()] = *saved;
    } else {
      lets_.erase(op->var.get());
    }
    return r;
  }
  ConstIntBound VisitExpr_(const ir::BroadcastNode* op) override { return VisitExpr(op->value); }
  ConstIntBound VisitExpr_(const ir::RampNode* op) override {
    ConstIntBound base = VisitExpr(op->base), stride = VisitExpr(op->stride);
    ConstIntBound offsets = MulBound(stride, {0, op->lanes - 1});
    return {InfAdd(base.min, offsets.min), InfAdd(base.max, offsets.max)};
  }

 private:
  const ConstIntBoundMap& vars_;
  ConstIntBoundMap lets_;
};

}  // namespace

ConstIntBound ConstIntBound::OfType(ir::DataType t) {
  if (!t.is_integral()) return Everything();
  return {TypeMinValue(t), TypeMaxValue(t)};
}

ConstIntBound ConstIntBound::Intersect(const ConstIntBound& other) const {
  return {std::max(min, other.min), std::min(max, other.max)};
}

ConstIntBound ConstIntBound::Union(const ConstIntBound& other) const {
  return {std::min(min, other.min), std::max(max, other.max)};
}

ConstIntBound EvalConstIntBound(const Expr& e, const ConstIntBoundMap& vars) {
  return BoundEvaluator(vars).VisitExpr(e);
}

}  // namespace tunefarm::arith
