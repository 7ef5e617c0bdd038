#include "compiler/passes/simplify.h"

#include "compiler/ir/simplify/simplify.h"

namespace tunefarm::passes {

absl::StatusOr<ir::PrimFunc> Simplify(ir::PrimFunc f) {
  f.body = arith::SimplifyStmt(f.body);
  return f;
}

}  // namespace tunefarm::passes
