// RemoveNoOp: deletes statements that do nothing, which unrolling, vectorizing and simplifying
// leave behind, so code generators and the cost model's features see only real work.
#pragma once

#include "absl/status/statusor.h"
#include "compiler/ir/function.h"

namespace tunefarm::passes {

// Removes Evaluate of constants; loops of non-positive constant extent or whose body does
// nothing; branches on constant conditions (keeping the taken side) and branches with nothing to
// do; Allocates whose buffer the body never touches; LetStmts whose variable is unused (values
// are pure); attributes around nothing.
// Preconditions: flattened IR (an Allocate is unused when no Load/Store names its variable).
absl::StatusOr<ir::PrimFunc> RemoveNoOp(ir::PrimFunc f);

}  // namespace tunefarm::passes
