// Compiled arithmetic: the binary nodes (arithmetic, comparison, logic), Not and Cast, lane-wise,
// with the IR's semantics (wraparound, C vs floor division, float32 rounding; expr.h).
#pragma once

#include "compiler/interp/code.h"
#include "compiler/ir/expr.h"

namespace tunefarm::interp {

// `source` is the IR node (for error messages); `operand_type` the type of its operands.
const ExprCode* MakeBinaryCode(CodeArena& arena, ir::ExprKind kind, ir::DataType operand_type,
                               const ExprCode* a, const ExprCode* b, ir::Expr source);
const ExprCode* MakeNotCode(CodeArena& arena, const ExprCode* a);
// Float to integer truncates toward zero; a value out of the target's range (undefined in C)
// saturates to int64 (uint64 for unsigned targets) and then wraps to the target's width, and NaN
// becomes 0. Any nonzero value casts to bool true.
const ExprCode* MakeCastCode(CodeArena& arena, ir::DataType from, ir::DataType to,
                             const ExprCode* a);

}  // namespace tunefarm::interp
