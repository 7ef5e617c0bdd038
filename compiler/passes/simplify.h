// Simplify: the arithmetic simplifier (compiler/ir/simplify) as a lowering pass, so the index
// arithmetic flattening, unrolling and virtual threads leave behind folds before codegen.
#pragma once

#include "absl/status/statusor.h"
#include "compiler/ir/function.h"

namespace tunefarm::passes {

// Rewrites the body with arith::SimplifyStmt (loop ranges, lets, thread extents and branch
// conditions bound while simplifying their bodies).
// Preconditions: none (any stage of lowering).
absl::StatusOr<ir::PrimFunc> Simplify(ir::PrimFunc f);

}  // namespace tunefarm::passes
