// Analyzer: the one object passes ask about integer facts. It records what the variables in
// scope range over (loop bounds, lets, thread extents, branch conditions) and answers from it:
// constant bounds, modular sets, symbolic intervals, provable conditions and simplification.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "compiler/ir/arith/const_int_bound.h"
#include "compiler/ir/arith/interval_set.h"
#include "compiler/ir/arith/modular_set.h"
#include "compiler/ir/arith/simplify_cache.h"
#include "compiler/ir/expr.h"

namespace tunefarm::arith {

class Analyzer {
 public:
  // {min, max}; kNegInf / kPosInf (INT64_MIN / INT64_MAX) where unknown.
  using ConstBound = ConstIntBound;

  // Undoes, when destroyed, every binding and constraint made since it was opened, including
  // plain Bind calls made meanwhile. Scopes must close in reverse order of opening.
  class [[nodiscard]] Scope {
   public:
    Scope(Scope&& other) noexcept;
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;
    Scope& operator=(Scope&&) = delete;
    ~Scope();

   private:
    friend class Analyzer;
    Scope(Analyzer* analyzer, size_t mark) : analyzer_(analyzer), mark_(mark) {}
    Analyzer* analyzer_;
    size_t mark_;
  };

  Analyzer();
  ~Analyzer();
  Analyzer(const Analyzer&) = delete;
  Analyzer& operator=(const Analyzer&) = delete;

  void Bind(const ir::Var& v, const ir::Range& r);     // v in [min, min+extent)
  void Bind(const ir::Var& v, const ir::Expr& value);  // v == value (let)
  // The same, undone when the returned scope closes (loop bodies, let bodies).
  Scope BindScoped(const ir::Var& v, const ir::Range& r);
  Scope BindScoped(const ir::Var& v, const ir::Expr& value);
  // A scope that binds nothing itself: what is bound or assumed until it closes is undone then
  // (for binding several variables at once, such as the axes of a reduction).
  Scope OpenScope() { return Scope(this, undo_log_.size()); }
  // Assumes `cond` (e.g. inside `if (cond)`) until the returned scope closes. Conjunctions split;
  // comparisons that isolate a variable tighten its bounds; `likely` is looked through.
  Scope EnterConstraint(const ir::Expr& cond);

  ir::Expr Simplify(const ir::Expr& e);
  // True only when `cond` is proven to hold for every value of the bound variables.
  bool CanProve(const ir::Expr& cond);
  ConstBound GetConstBound(const ir::Expr& e);
  bool CanProveGreaterEqual(const ir::Expr& e, int64_t v);
  bool CanProveLess(const ir::Expr& e, int64_t v);
  ModularSet GetModularSet(const ir::Expr& e);
  // The set of values of `e` as every bound variable sweeps its range (symbolic bounds kept).
  IntervalSet GetIntervalSet(const ir::Expr& e);
  // True when `cond` is structurally one of the conditions currently assumed.
  bool IsAssumed(const ir::Expr& cond) const;

 private:
  // Records how to undo a change. Undo entries hold the variable's handle, which keeps it alive
  // while the maps are keyed by its address.
  void Log(std::function<void()> undo) { undo_log_.push_back(std::move(undo)); }
  // Gives the state a new id (after a change to what the analyzer knows), restored on undo.
  void NewState();
  void UndoTo(size_t mark);
  void SetConstBound(const ir::Var& v, const ConstIntBound& b);
  void SetModularSet(const ir::Var& v, const ModularSet& m);
  void SetInterval(const ir::Var& v, const IntervalSet& s);
  void AddConstraintAtom(const ir::Expr& atom);
  // Narrows v's bounds to [lower, upper] (either may be undefined).
  void Tighten(const ir::Var& v, const ir::Expr& lower, const ir::Expr& upper);
  IntervalSet CurrentInterval(const ir::Var& v);
  // Relaxes the variables with symbolic bounds, one at a time from the most recently bound (whose
  // bounds may mention earlier ones, as j in [0, i]); other variables stay symbols. Relaxing
  // j before i keeps what j's bound says about i, which proves j <= i. Each variable gets one
  // symbolic turn; if it comes back (bounds naming each other) its constant bounds are used.
  IntervalSet RelaxSymbolic(const ir::Expr& e);
  // The most recently bound variable of intervals_ not in `done` that the bounds of `s`
  // mention, if any.
  const ir::VarNode* LatestRelaxable(const IntervalSet& s,
                                     const std::unordered_set<const ir::VarNode*>& done) const;

  ConstIntBoundMap const_bounds_;
  ModularSetMap modular_sets_;
  // Only variables whose bounds are not both constants: the ones symbolic reasoning needs.
  VarIntervalMap intervals_;
  // When each entry of intervals_ was set, for relaxing the latest first.
  std::unordered_map<const ir::VarNode*, uint64_t> interval_order_;
  uint64_t next_order_ = 0;
  std::vector<ir::Expr> facts_;
  std::vector<std::function<void()>> undo_log_;
  // Symbolic interval reasoning simplifies bounds, which asks for bounds again; one level of
  // nesting is enough and keeps that recursion finite.
  int symbolic_depth_ = 0;
  // Identifies the current knowledge: equal ids mean equal bindings and constraints (undo
  // restores the id of the state it returns to), so simplification results can be reused.
  uint64_t state_ = 0;
  uint64_t last_state_ = 0;
  SimplifyCache simplify_cache_;
};

}  // namespace tunefarm::arith
