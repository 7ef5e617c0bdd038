#include "compiler/ir/arith/analyzer.h"

#include <algorithm>
#include <optional>
#include <tuple>
#include <unordered_set>
#include <utility>

#include "compiler/ir/arith/var_use.h"
#include "compiler/ir/check.h"
#include "compiler/ir/simplify/linear_sum.h"
#include "compiler/ir/simplify/simplify.h"
#include "compiler/ir/structural_equal.h"
#include "compiler/ir/visitor.h"

namespace tunefarm::arith {
namespace {

using ir::DataType;
using ir::Expr;

bool IsIntScalar(DataType t) { return t.is_scalar() && (t.is_int() || t.is_uint()); }
bool IsImm(const Expr& e) { return e.defined() && e.As<ir::IntImmNode>() != nullptr; }

// A constant bound as an interval endpoint, or undefined (no bound) when it is large. Bounds
// near a type's limits come from unbounded variables clamped to their type; as endpoints,
// arithmetic on them can step past the limit and wrap (INT_MAX + 1 reads as INT_MIN), which
// would turn a bound into a false one. A quarter of the range leaves headroom for the few
// constants an endpoint collects.
Expr Endpoint(DataType t, int64_t v) {
  int64_t limit = TypeMaxValue(t) / 4;
  if (v == kNegInf || v == kPosInf || v < -limit || v > limit) return Expr();
  return ir::IntImm(t, v);
}

IntervalSet FromConstBound(DataType t, const ConstIntBound& b) {
  return {Endpoint(t, b.min), Endpoint(t, b.max)};
}

Expr StripLikely(const Expr& e) {
  const auto* call = e.As<ir::CallNode>();
  return call && call->op == ir::Intrinsic::kLikely ? StripLikely(call->args[0]) : e;
}

void SplitAnd(const Expr& e, std::vector<Expr>* atoms) {
  Expr x = StripLikely(e);
  if (const auto* a = x.As<ir::AndNode>()) {
    SplitAnd(a->a, atoms);
    SplitAnd(a->b, atoms);
  } else {
    atoms->push_back(x);
  }
}

// The comparison `atom` as (a, b, kind) with kind one of LT, LE, EQ; nullopt for other atoms.
std::optional<std::tuple<Expr, Expr, ir::ExprKind>> AsOrderedCompare(const Expr& atom) {
  using K = ir::ExprKind;
  switch (atom.kind()) {
    case K::kLT:
      return std::tuple{atom.As<ir::LTNode>()->a, atom.As<ir::LTNode>()->b, K::kLT};
    case K::kLE:
      return std::tuple{atom.As<ir::LENode>()->a, atom.As<ir::LENode>()->b, K::kLE};
    case K::kEQ:
      return std::tuple{atom.As<ir::EQNode>()->a, atom.As<ir::EQNode>()->b, K::kEQ};
    case K::kGT:
      return std::tuple{atom.As<ir::GTNode>()->b, atom.As<ir::GTNode>()->a, K::kLT};
    case K::kGE:
      return std::tuple{atom.As<ir::GENode>()->b, atom.As<ir::GENode>()->a, K::kLE};
    default:
      return std::nullopt;
  }
}

}  // namespace

Analyzer::Scope::Scope(Scope&& other) noexcept : analyzer_(other.analyzer_), mark_(other.mark_) {
  other.analyzer_ = nullptr;
}

Analyzer::Scope::~Scope() {
  if (analyzer_ != nullptr) analyzer_->UndoTo(mark_);
}

Analyzer::Analyzer() = default;
Analyzer::~Analyzer() = default;

void Analyzer::UndoTo(size_t mark) {
  TF_CHECK(mark <= undo_log_.size()) << "Analyzer scopes closed out of order";
  while (undo_log_.size() > mark) {
    std::function<void()> undo = std::move(undo_log_.back());
    undo_log_.pop_back();
    undo();
  }
}

void Analyzer::NewState() {
  Log([this, old = state_] { state_ = old; });
  state_ = ++last_state_;
}

void Analyzer::SetConstBound(const ir::Var& v, const ConstIntBound& b) {
  NewState();
  std::optional<ConstIntBound> old;
  if (auto it = const_bounds_.find(v.get()); it != const_bounds_.end()) old = it->second;
  const_bounds_[v.get()] = b;
  Log([this, v, old] {
    if (old) {
      const_bounds_[v.get()] = *old;
    } else {
      const_bounds_.erase(v.get());
    }
  });
}

void Analyzer::SetModularSet(const ir::Var& v, const ModularSet& m) {
  NewState();
  std::optional<ModularSet> old;
  if (auto it = modular_sets_.find(v.get()); it != modular_sets_.end()) old = it->second;
  modular_sets_[v.get()] = m;
  Log([this, v, old] {
    if (old) {
      modular_sets_[v.get()] = *old;
    } else {
      modular_sets_.erase(v.get());
    }
  });
}

void Analyzer::SetInterval(const ir::Var& v, const IntervalSet& s) {
  std::optional<IntervalSet> old;
  std::optional<uint64_t> old_order;
  if (auto it = intervals_.find(v.get()); it != intervals_.end()) {
    old = it->second;
    old_order = interval_order_.at(v.get());
  }
  // Constant bounds are fully known to const_bounds_; only symbolic ones are kept here.
  bool symbolic = (s.min.defined() && !IsImm(s.min)) || (s.max.defined() && !IsImm(s.max));
  if (symbolic) {
    intervals_[v.get()] = s;
    interval_order_[v.get()] = next_order_++;
  } else if (old) {
    intervals_.erase(v.get());
    interval_order_.erase(v.get());
  } else {
    return;
  }
  NewState();
  Log([this, v, old, old_order] {
    if (old) {
      intervals_[v.get()] = *old;
      interval_order_[v.get()] = *old_order;
    } else {
      intervals_.erase(v.get());
      interval_order_.erase(v.get());
    }
  });
}

void Analyzer::Bind(const ir::Var& v, const ir::Range& r) {
  DataType t = v.dtype();
  Expr min = Simplify(r.min), extent = Simplify(r.extent);
  if (ir::IsConstInt(extent, 1)) return Bind(v, min);
  if (!IsIntScalar(t)) return;
  Expr max = Simplify(ir::AddNode::Make(min, ir::SubNode::Make(extent, ir::IntImm(t, 1))));
  ConstIntBound b{GetConstBound(min).min, GetConstBound(max).max};
  SetConstBound(v, b.Intersect(ConstIntBound::OfType(t)));
  SetModularSet(v, ModularSet::Everything());
  SetInterval(v, IntervalSet{min, max});
}

void Analyzer::Bind(const ir::Var& v, const ir::Expr& value) {
  if (!IsIntScalar(v.dtype())) return;
  Expr val = Simplify(value);
  SetConstBound(v, GetConstBound(val).Intersect(ConstIntBound::OfType(v.dtype())));
  SetModularSet(v, GetModularSet(val));
  SetInterval(v, RelaxSymbolic(val));
}

Analyzer::Scope Analyzer::BindScoped(const ir::Var& v, const ir::Range& r) {
  size_t mark = undo_log_.size();
  Bind(v, r);
  return Scope(this, mark);
}

Analyzer::Scope Analyzer::BindScoped(const ir::Var& v, const ir::Expr& value) {
  size_t mark = undo_log_.size();
  Bind(v, value);
  return Scope(this, mark);
}

Analyzer::Scope Analyzer::EnterConstraint(const ir::Expr& cond) {
  size_t mark = undo_log_.size();
  std::vector<Expr> atoms;
  SplitAnd(Simplify(cond), &atoms);
  for (const Expr& atom : atoms) AddConstraintAtom(atom);
  return Scope(this, mark);
}

void Analyzer::AddConstraintAtom(const Expr& atom) {
  if (IsImm(atom)) return;
  NewState();
  facts_.push_back(atom);
  Log([this] { facts_.pop_back(); });
  auto cmp = AsOrderedCompare(atom);
  if (!cmp) return;
  auto [a, b, kind] = *cmp;
  if (!IsIntScalar(a.dtype()) || a.dtype().is_uint()) return;
  // a < b  <=>  a - b + 1 <= 0;  a <= b  <=>  a - b <= 0;  a == b  <=>  a - b == 0.
  LinearSum d = LinearSum::FromExpr(a);
  d.AddExpr(b, -1);
  if (kind == ir::ExprKind::kLT) d.AddConst(1);
  for (const auto& term : d.terms()) {
    const auto* var = term.expr.As<ir::VarNode>();
    if (var == nullptr || (term.coeff != 1 && term.coeff != -1)) continue;
    LinearSum rest(d.dtype());
    for (const auto& other : d.terms()) {
      if (!other.expr.same_as(term.expr)) rest.AddTerm(other.expr, other.coeff);
    }
    rest.AddConst(d.constant());
    Expr rest_expr = rest.ToExpr();
    if (UsesVar(rest_expr, var)) continue;
    // coeff 1: v + rest <= 0 gives v <= -rest; coeff -1: rest - v <= 0 gives v >= rest.
    LinearSum neg(d.dtype());
    neg.AddSum(rest, -1);
    Expr bound = term.coeff == 1 ? neg.ToExpr() : rest_expr;
    bool eq = kind == ir::ExprKind::kEQ;
    ir::Var v(std::static_pointer_cast<const ir::VarNode>(term.expr.node_ptr()));
    if (term.coeff == 1) {
      Tighten(v, eq ? bound : Expr(), bound);
    } else {
      Tighten(v, bound, eq ? bound : Expr());
    }
  }
}

IntervalSet Analyzer::CurrentInterval(const ir::Var& v) {
  if (auto it = intervals_.find(v.get()); it != intervals_.end()) return it->second;
  return FromConstBound(v.dtype(), EvalConstIntBound(v, const_bounds_));
}

void Analyzer::Tighten(const ir::Var& v, const Expr& lower, const Expr& upper) {
  // Constant bounds from constant bounds only: constraints arrive often (every guard), and
  // symbolic proofs here would make entering one cost as much as a proof per variable.
  ConstIntBound cur = EvalConstIntBound(v, const_bounds_);
  IntervalSet s = CurrentInterval(v);
  ConstIntBound next = cur;
  if (lower.defined()) next.min = std::max(next.min, EvalConstIntBound(lower, const_bounds_).min);
  if (upper.defined()) next.max = std::min(next.max, EvalConstIntBound(upper, const_bounds_).max);
  if (!(next == cur)) SetConstBound(v, next);
  // A symbolic bound is recorded on a side that had none, so bounds never grow into nests of
  // min/max: `x + 2 < n` gives n the lower bound x + 3, which proves x < n.
  bool changed = false;
  if (lower.defined() && !IsImm(lower) && !s.min.defined()) {
    s.min = lower;
    changed = true;
  }
  if (upper.defined() && !IsImm(upper) && !s.max.defined()) {
    s.max = upper;
    changed = true;
  }
  if (changed) SetInterval(v, s);
}

Expr Analyzer::Simplify(const Expr& e) {
  size_t hash;
  if (!SimplifyCache::Hash(e, &hash)) return arith::Simplify(e, this);
  // Below symbolic_depth_ 0 bounds are found differently, so that is part of the state.
  uint64_t state = state_ * 2 + (symbolic_depth_ > 0 ? 1 : 0);
  if (Expr hit = simplify_cache_.Find(state, hash, e); hit.defined()) return hit;
  Expr r = arith::Simplify(e, this);
  simplify_cache_.Insert(state, hash, e, r);
  return r;
}

bool Analyzer::CanProve(const Expr& cond) {
  Expr c = Simplify(cond);
  return ir::IsConstInt(c, 1) || IsAssumed(c);
}

const ir::VarNode* Analyzer::LatestRelaxable(
    const IntervalSet& s, const std::unordered_set<const ir::VarNode*>& done) const {
  const ir::VarNode* latest = nullptr;
  auto visit = [&](const Expr& x) {
    const auto* v = x.As<ir::VarNode>();
    auto it = v != nullptr ? interval_order_.find(v) : interval_order_.end();
    if (it == interval_order_.end() || done.count(v) != 0) return;
    if (latest == nullptr || it->second > interval_order_.at(latest)) latest = v;
  };
  if (s.min.defined()) ir::PostOrderVisit(s.min, visit);
  if (s.max.defined()) ir::PostOrderVisit(s.max, visit);
  return latest;
}

IntervalSet Analyzer::RelaxSymbolic(const Expr& e) {
  // Bounds met while relaxing are only bounded by constants (see symbolic_depth_).
  ++symbolic_depth_;
  IntervalSet s = IntervalSet::SinglePoint(e);
  // Each variable is relaxed by its symbolic bounds once. Bounds can name each other (x < y and
  // y < x + 4 give each a bound in the other); a variable that comes back after its turn is
  // relaxed by its constant bounds instead, which ends the walk.
  std::unordered_set<const ir::VarNode*> done;
  while (const ir::VarNode* latest = LatestRelaxable(s, done)) {
    done.insert(latest);
    VarIntervalMap one{{latest, intervals_.at(latest)}};
    if (s.min.defined()) s.min = EvalSet(s.min, one, this).min;
    if (s.max.defined()) s.max = EvalSet(s.max, one, this).max;
  }
  VarIntervalMap constant;
  for (const ir::VarNode* v : done) {
    auto it = const_bounds_.find(v);
    constant[v] = FromConstBound(
        v->dtype, it != const_bounds_.end() ? it->second : ConstIntBound::OfType(v->dtype));
  }
  auto comes_back = [&](const Expr& bound) {
    return bound.defined() &&
           UsesVar(bound, [&](const ir::VarNode* v) { return constant.count(v) != 0; });
  };
  if (comes_back(s.min)) s.min = EvalSet(s.min, constant, this).min;
  if (comes_back(s.max)) s.max = EvalSet(s.max, constant, this).max;
  --symbolic_depth_;
  return s;
}

Analyzer::ConstBound Analyzer::GetConstBound(const Expr& e) {
  if (!e.dtype().is_integral()) return ConstIntBound::Everything();
  ConstIntBound b = EvalConstIntBound(e, const_bounds_);
  // Symbolic reasoning is for signed index arithmetic, where differences do not wrap.
  if (symbolic_depth_ > 0 || intervals_.empty() || b.IsPoint() || !e.dtype().is_int()) return b;
  if (!UsesVar(e, [this](const ir::VarNode* v) { return intervals_.count(v) != 0; })) return b;
  IntervalSet s = RelaxSymbolic(e);
  if (s.min.defined()) b.min = std::max(b.min, EvalConstIntBound(s.min, const_bounds_).min);
  if (s.max.defined()) b.max = std::min(b.max, EvalConstIntBound(s.max, const_bounds_).max);
  return b;
}

bool Analyzer::CanProveGreaterEqual(const Expr& e, int64_t v) {
  return GetConstBound(Simplify(e)).min >= v;
}

bool Analyzer::CanProveLess(const Expr& e, int64_t v) { return GetConstBound(Simplify(e)).max < v; }

ModularSet Analyzer::GetModularSet(const Expr& e) { return EvalModularSet(e, modular_sets_); }

IntervalSet Analyzer::GetIntervalSet(const Expr& e) {
  IntervalSet s = RelaxSymbolic(e);
  VarIntervalMap dom;
  for (const auto& [var, b] : const_bounds_) dom[var] = FromConstBound(var->dtype, b);
  if (s.min.defined()) s.min = EvalSet(s.min, dom, this).min;
  if (s.max.defined()) s.max = EvalSet(s.max, dom, this).max;
  return s;
}

bool Analyzer::IsAssumed(const Expr& cond) const {
  return std::any_of(facts_.begin(), facts_.end(),
                     [&](const Expr& f) { return ir::StructuralEqual(f, cond); });
}

}  // namespace tunefarm::arith
