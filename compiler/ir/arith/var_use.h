// Questions about which variables an expression or statement mentions (for let elimination and
// for deciding whether interval analysis has anything to relax).
#pragma once

#include <functional>

#include "compiler/ir/expr.h"
#include "compiler/ir/stmt.h"

namespace tunefarm::arith {

// True when some variable `e` (or `s`) mentions, in the sense below, satisfies `pred`.
bool UsesVar(const ir::Expr& e, const std::function<bool(const ir::VarNode*)>& pred);
bool UsesVar(const ir::Stmt& s, const std::function<bool(const ir::VarNode*)>& pred);
// True when `e` (or `s`) mentions `v`, including as the storage handle of a load or store and
// as the variable an AttrStmt annotates.
bool UsesVar(const ir::Expr& e, const ir::VarNode* v);
bool UsesVar(const ir::Stmt& s, const ir::VarNode* v);

}  // namespace tunefarm::arith
