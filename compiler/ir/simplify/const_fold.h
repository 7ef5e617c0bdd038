// Constant folding: evaluates an operator on immediate operands of any scalar type with the IR's
// semantics (integers wrap at their width, float32 rounds as float32, division by zero and
// float results that depend on NaN ordering are never folded).
#pragma once

#include "compiler/ir/expr.h"

namespace tunefarm::arith {

// Folds the binary node kind `kind` over immediates `a` and `b` of one scalar type. Returns an
// undefined Expr when an operand is not an immediate or the result must not be folded.
ir::Expr FoldBinary(ir::ExprKind kind, const ir::Expr& a, const ir::Expr& b);

// Folds `!a` for a bool immediate; undefined otherwise.
ir::Expr FoldNot(const ir::Expr& a);

// Folds a scalar cast of an immediate; undefined when the value is out of the target's range
// (float to int) or the target type cannot hold an immediate (float16).
ir::Expr FoldCast(ir::DataType t, const ir::Expr& value);

// True for IntImm and FloatImm.
bool IsImmediate(const ir::Expr& e);

}  // namespace tunefarm::arith
