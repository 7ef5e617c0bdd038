// Compiled expressions other than arithmetic and memory: constants, variables, Ramp, Broadcast,
// Select, Let and the intrinsic calls (math, and the lazy if_then_else).
#pragma once

#include "compiler/interp/code.h"
#include "compiler/ir/expr.h"

namespace tunefarm::interp {

// A constant: `lanes` copies of `value`.
const ExprCode* MakeConstCode(CodeArena& arena, Lane value, int lanes);
// Reads the `lanes` slots from `slot` on.
const ExprCode* MakeVarCode(CodeArena& arena, int slot, int lanes);
// `type` is the Ramp's (vector) type.
const ExprCode* MakeRampCode(CodeArena& arena, ir::DataType type, const ExprCode* base,
                             const ExprCode* stride);
const ExprCode* MakeBroadcastCode(CodeArena& arena, const ExprCode* value, int lanes);
// Evaluates all three operands; the condition is scalar or has the values' lanes.
const ExprCode* MakeSelectCode(CodeArena& arena, const ExprCode* condition,
                               const ExprCode* true_value, const ExprCode* false_value);
// Binds the `value->lanes()` slots from `slot` on to `value` while `body` is evaluated.
const ExprCode* MakeLetCode(CodeArena& arena, int slot, const ExprCode* value,
                            const ExprCode* body);
// exp log sqrt tanh sigmoid fabs pow floor ceil on float lanes of `type`.
const ExprCode* MakeMathCode(CodeArena& arena, ir::Intrinsic op, ir::DataType type,
                             const ExprCode* a, const ExprCode* b);
// dot4_add: int32 lanes of `acc` plus the products of four 8-bit lanes of `a` and `b` each.
const ExprCode* MakeDot4AddCode(CodeArena& arena, const ExprCode* acc, const ExprCode* a,
                                const ExprCode* b);
// Evaluates only the chosen operand; with a vector condition, each operand only for the lanes
// that choose it.
const ExprCode* MakeIfThenElseCode(CodeArena& arena, const ExprCode* condition,
                                   const ExprCode* true_value, const ExprCode* false_value);

}  // namespace tunefarm::interp
