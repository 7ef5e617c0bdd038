// Printer: renders expressions and statements as a readable C-like loop nest, in the format
// TVM users know (`for (i, 0, n) {`, `// attr [...] thread_extent = 8`, `allocate ...`).
#pragma once

#include <ostream>
#include <string>

#include "compiler/ir/expr.h"
#include "compiler/ir/function.h"
#include "compiler/ir/stmt.h"

namespace tunefarm::ir {

std::string ToString(const Expr& e);
std::string ToString(const Stmt& s);
std::ostream& operator<<(std::ostream& os, const Expr& e);
std::ostream& operator<<(std::ostream& os, const Stmt& s);
// "// PrimFunc NAME(A: float32[n, n], ...)" and the printed body: how `tunefarm lower` and the
// dashboard's record pages show a lowered function.
std::string ToString(const PrimFunc& func);

}  // namespace tunefarm::ir
