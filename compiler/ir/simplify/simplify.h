// The simplifier: rewrites expressions and statements to simpler, canonical forms without
// changing their meaning. Constants fold, linear index arithmetic gets one canonical form, and
// div/mod, min/max, comparisons, logic and branches are decided where known bounds allow.
//
// Integer arithmetic of signed types is assumed not to overflow (as index arithmetic must
// not), so `x < x + 1` is true; unsigned arithmetic is only folded and combined modulo its width.
#pragma once

#include "compiler/ir/expr.h"
#include "compiler/ir/stmt.h"

namespace tunefarm::arith {

class Analyzer;

// Simplifies `e` using what `analyzer` knows about its variables (none when null). The result
// has e's type, and simplifying it again gives a structurally equal expression.
ir::Expr Simplify(const ir::Expr& e, Analyzer* analyzer = nullptr);

// Simplifies every expression of `s`, binding loop ranges, lets, thread extents and branch
// conditions while visiting their bodies; removes provably dead branches, empty loops, and loops
// of one iteration (except thread-bound ones).
ir::Stmt SimplifyStmt(const ir::Stmt& s, Analyzer* analyzer = nullptr);

}  // namespace tunefarm::arith
