// Operators and helpers that build expressions with C-like type promotion: an int operand meets
// a float one by a cast to float, a narrower integer is widened, a scalar meets a vector by a
// broadcast. Builders (te, schedule, passes) use these instead of the raw node `Make`s.
#pragma once

#include "compiler/ir/expr.h"

namespace tunefarm::ir {

// Brings a and b to one type as described above.
void MatchTypes(Expr& a, Expr& b);
Expr Cast(DataType t, Expr value);  // returns value itself when its type is already t

Expr operator+(Expr a, Expr b);
Expr operator-(Expr a, Expr b);
Expr operator*(Expr a, Expr b);
Expr operator-(Expr a);
Expr operator==(Expr a, Expr b);
Expr operator!=(Expr a, Expr b);
Expr operator<(Expr a, Expr b);
Expr operator<=(Expr a, Expr b);
Expr operator>(Expr a, Expr b);
Expr operator>=(Expr a, Expr b);
Expr operator&&(Expr a, Expr b);
Expr operator||(Expr a, Expr b);
Expr operator!(Expr a);

Expr TruncDiv(Expr a, Expr b);  // C division
Expr TruncMod(Expr a, Expr b);
Expr FloorDiv(Expr a, Expr b);  // Python `//`
Expr FloorMod(Expr a, Expr b);  // Python `%`
Expr Div(Expr a, Expr b);       // `/`: float division for floats, floor division for integers
Expr Min(Expr a, Expr b);
Expr Max(Expr a, Expr b);
Expr Select(Expr c, Expr t, Expr f);
Expr IfThenElse(Expr c, Expr t, Expr f);  // lazy: only the chosen operand is evaluated
Expr Likely(Expr c);
Expr Call(Intrinsic op, std::vector<Expr> args);  // promotes integer arguments of math calls

// Folds two constants eagerly where the result is exact, so builders produce tidy IR without
// running the simplifier (for example, 4 * 8 becomes 32). Other expressions are unchanged.
Expr FoldConstants(const Expr& e);

// The largest and smallest value of a type, as immediates.
Expr MaxValue(DataType t);
Expr MinValue(DataType t);

}  // namespace tunefarm::ir
