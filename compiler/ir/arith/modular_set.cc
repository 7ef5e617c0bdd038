#include "compiler/ir/arith/modular_set.h"

#include <optional>

#include "compiler/ir/arith/int_arith.h"
#include "compiler/ir/functor.h"

namespace tunefarm::arith {
namespace {

using ir::Expr;

// Checked int64 helpers: nullopt on overflow, which callers turn into Everything.
std::optional<int64_t> CheckedAdd(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_add_overflow(a, b, &r)) return std::nullopt;
  return r;
}
std::optional<int64_t> CheckedMul(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_mul_overflow(a, b, &r)) return std::nullopt;
  return r;
}

ModularSet AddSets(const ModularSet& a, const ModularSet& b, int64_t sign) {
  auto nb = CheckedMul(b.base, sign);
  auto base = nb ? CheckedAdd(a.base, *nb) : std::nullopt;
  if (!base) return ModularSet::Everything();
  return ModularSet::Make(Gcd(a.coeff, b.coeff), *base);
}

// (c1*k + b1) * (c2*l + b2) = c1*c2*k*l + c1*b2*k + c2*b1*l + b1*b2.
ModularSet MulSets(const ModularSet& a, const ModularSet& b) {
  auto cc = CheckedMul(a.coeff, b.coeff), cb = CheckedMul(a.coeff, b.base);
  auto bc = CheckedMul(b.coeff, a.base), bb = CheckedMul(a.base, b.base);
  if (!cc || !cb || !bc || !bb) return ModularSet::Everything();
  return ModularSet::Make(Gcd(Gcd(*cc, *cb), *bc), *bb);
}

class ModularEvaluator : public ir::ExprFunctor<ModularSet(const Expr&)> {
 public:
  explicit ModularEvaluator(const ModularSetMap& vars) : vars_(vars) {}

 protected:
  ModularSet VisitExprDefault_(const ir::ExprNode*) override { return ModularSet::Everything(); }
  ModularSet VisitExpr_(const ir::IntImmNode* op) override { return ModularSet::Const(op->value); }
  ModularSet VisitExpr_(const ir::VarNode* op) override {
    if (auto it = lets_.find(op); it != lets_.end()) return it->second;
    if (auto it = vars_.find(op); it != vars_.end()) return it->second;
    return ModularSet::Everything();
  }
  ModularSet VisitExpr_(const ir::AddNode* op) override {
    return AddSets(VisitExpr(op->a), VisitExpr(op->b), 1);
  }
  ModularSet VisitExpr_(const ir::SubNode* op) override {
    return AddSets(VisitExpr(op->a), VisitExpr(op->b), -1);
  }
  ModularSet VisitExpr_(const ir::MulNode* op) override {
    return MulSets(VisitExpr(op->a), VisitExpr(op->b));
  }
  ModularSet VisitExpr_(const ir::FloorDivNode* op) override {
    ModularSet a = VisitExpr(op->a), b = VisitExpr(op->b);
    if (!b.IsConst() || b.base <= 0) return ModularSet::Everything();
    // (c*k + base) // d == (c/d)*k + base // d when d divides c.
    if (a.coeff % b.base != 0) return ModularSet::Everything();
    return ModularSet::Make(a.coeff / b.base, FloorDivInt(a.base, b.base));
  }
  ModularSet VisitExpr_(const ir::FloorModNode* op) override {
    ModularSet a = VisitExpr(op->a), b = VisitExpr(op->b);
    if (!b.IsConst() || b.base <= 0) return ModularSet::Everything();
    // x mod d keeps x's residue modulo gcd(c, d), which divides d.
    if (a.coeff % b.base == 0) return ModularSet::Const(FloorModInt(a.base, b.base));
    return ModularSet::Make(Gcd(a.coeff, b.base), a.base);
  }
  ModularSet VisitExpr_(const ir::DivNode* op) override { return ConstOnly(op, op->a, op->b); }
  ModularSet VisitExpr_(const ir::ModNode* op) override { return ConstOnly(op, op->a, op->b); }
  ModularSet VisitExpr_(const ir::MinNode* op) override {
    return VisitExpr(op->a).Union(VisitExpr(op->b));
  }
  ModularSet VisitExpr_(const ir::MaxNode* op) override {
    return VisitExpr(op->a).Union(VisitExpr(op->b));
  }
  ModularSet VisitExpr_(const ir::SelectNode* op) override {
    return VisitExpr(op->true_value).Union(VisitExpr(op->false_value));
  }
  ModularSet VisitExpr_(const ir::CallNode* op) override {
    if (op->op != ir::Intrinsic::kIfThenElse) return ModularSet::Everything();
    return VisitExpr(op->args[1]).Union(VisitExpr(op->args[2]));
  }
  ModularSet VisitExpr_(const ir::CastNode* op) override {
    ir::DataType from = op->value.dtype(), to = op->dtype;
    // Residues survive a cast that cannot wrap: same signedness, no narrowing.
    bool widening = from.is_integral() && to.is_integral() && from.code() == to.code() &&
                    to.bits() >= from.bits();
    return widening ? VisitExpr(op->value) : ModularSet::Everything();
  }
  ModularSet VisitExpr_(const ir::LetNode* op) override {
    ModularSet value = VisitExpr(op->value);
    std::optional<ModularSet> saved;
    if (auto it = lets_.find(op->var.get()); it != lets_.end()) saved = it->second;
    lets_[op->var.get()] = value;
    ModularSet r = VisitExpr(op->body);
    if (saved) {
      lets_[op->var.get()] = *saved;
    } else {
      lets_.erase(op->var.get());
    }
    return r;
  }
  ModularSet VisitExpr_(const ir::BroadcastNode* op) override { return VisitExpr(op->value); }
  ModularSet VisitExpr_(const ir::RampNode* op) override {
    // base + stride * k for k in [0, lanes): stride times an unknown integer.
    ModularSet offsets = MulSets(VisitExpr(op->stride), ModularSet::Everything());
    return AddSets(VisitExpr(op->base), offsets, 1);
  }

 private:
  // Truncating division and modulo are only folded for constants.
  ModularSet ConstOnly(const ir::ExprNode* op, const Expr& a, const Expr& b) {
    ModularSet x = VisitExpr(a), y = VisitExpr(b);
    if (!x.IsConst() || !y.IsConst() || y.base == 0) return ModularSet::Everything();
    if (y.base == -1) return ModularSet::Everything();
    return ModularSet::Const(op->kind == ir::ExprKind::kDiv ? x.base / y.base : x.base % y.base);
  }

  const ModularSetMap& vars_;
  ModularSetMap lets_;
};

}  // namespace

ModularSet ModularSet::Make(int64_t coeff, int64_t base) {
  if (coeff == kNegInf) return Everything();
  if (coeff < 0) coeff = -coeff;
  if (coeff == 0) return Const(base);
  return {coeff, FloorModInt(base, coeff)};
}

bool ModularSet::IsMultipleOf(int64_t factor) const {
  if (factor <= 0) return false;
  if (IsConst()) return base % factor == 0;
  return coeff % factor == 0 && base % factor == 0;
}

ModularSet ModularSet::Union(const ModularSet& other) const {
  int64_t diff;
  if (__builtin_sub_overflow(base, other.base, &diff)) return Everything();
  return Make(Gcd(Gcd(coeff, other.coeff), diff), base);
}

ModularSet EvalModularSet(const Expr& e, const ModularSetMap& vars) {
  return ModularEvaluator(vars).VisitExpr(e);
}

}  // namespace tunefarm::arith
