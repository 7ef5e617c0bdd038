// FreeVars: the variables a statement reads that it does not define itself. They become a
// kernel's integer arguments and the captures of an outlined parallel loop.
#pragma once

#include <vector>

#include "compiler/ir/expr.h"
#include "compiler/ir/stmt.h"

namespace tunefarm::codegen {

// Variables `s` uses (in expressions, and as the storage handle of a Load or Store) that no loop,
// let, allocation or thread attribute inside `s` binds, in order of first use.
std::vector<ir::Var> FreeVars(const ir::Stmt& s);

}  // namespace tunefarm::codegen
