// Structural equality and hashing of IR: equal up to the renaming of bound variables (loop
// variables, lets, allocations) and of buffers with the same name, type, scope and shape.
#pragma once

#include <cstddef>

#include "compiler/ir/expr.h"
#include "compiler/ir/stmt.h"

namespace tunefarm::ir {

// With `map_free_vars`, free variables also match by position of first use (useful to compare
// two lowerings of one schedule written twice); otherwise they must be the same variable.
bool StructuralEqual(const Expr& a, const Expr& b, bool map_free_vars = false);
bool StructuralEqual(const Stmt& a, const Stmt& b, bool map_free_vars = false);

// Consistent with StructuralEqual(..., map_free_vars = true): variables hash by order of first
// appearance, so renamed copies hash alike.
size_t StructuralHash(const Expr& e);
size_t StructuralHash(const Stmt& s);

}  // namespace tunefarm::ir
