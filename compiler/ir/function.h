// PrimFunc: a lowered function — its tensor parameters and its body. Symbolic shape variables
// that appear in parameter shapes are bound from the actual arrays at call time.
#pragma once

#include <string>
#include <vector>

#include "compiler/ir/expr.h"
#include "compiler/ir/stmt.h"

namespace tunefarm::ir {

struct PrimFunc {
  std::string name;
  std::vector<Buffer> params;  // in call order; each param's data var is its storage handle
  Stmt body;
};

}  // namespace tunefarm::ir
