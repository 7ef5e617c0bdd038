// Integer interval analysis over symbolic expressions: the range of values an index expression
// takes while loop variables sweep their domains. Bound inference is built on it.
#pragma once

#include <unordered_map>

#include "compiler/ir/expr.h"

namespace tunefarm::arith {

class Analyzer;

// Inclusive interval [min, max] of an integer expression; min/max may be symbolic Exprs; an
// undefined min means -inf, an undefined max means +inf.
struct IntervalSet {
  ir::Expr min;  // undefined => unbounded below
  ir::Expr max;  // undefined => unbounded above

  static IntervalSet SinglePoint(ir::Expr v);
  static IntervalSet FromRange(const ir::Range& r);  // [min, min + extent - 1]
  static IntervalSet Everything();
  bool IsSinglePoint() const;  // both bounds defined and structurally equal
  bool IsEverything() const;
  bool HasLowerBound() const { return min.defined(); }
  bool HasUpperBound() const { return max.defined(); }
};

using VarIntervalMap = std::unordered_map<const ir::VarNode*, IntervalSet>;

// Evaluates the set of values of `e` when each var in `dom` ranges over its set (vars not in dom
// are treated as fixed symbols = single points). Bounds come out simplified. Nodes it cannot
// bound (loads, calls) give Everything. `analyzer`, when given, supplies what is known about the
// fixed symbols (for example the sign of a symbolic factor) and simplifies the bounds.
IntervalSet EvalSet(const ir::Expr& e, const VarIntervalMap& dom);
IntervalSet EvalSet(const ir::Expr& e, const VarIntervalMap& dom, Analyzer* analyzer);
// The set covered by the range [r.min, r.min + r.extent).
IntervalSet EvalSet(const ir::Range& r, const VarIntervalMap& dom);

// The hull of two sets; bounds simplified.
IntervalSet Union(const IntervalSet& a, const IntervalSet& b);
// The intersection of two sets (possibly empty when min > max); bounds simplified.
IntervalSet Intersect(const IntervalSet& a, const IntervalSet& b);

// The range [min, max] as (min, extent = max - min + 1), simplified; requires both bounds.
ir::Range ToRange(const IntervalSet& s);

}  // namespace tunefarm::arith
