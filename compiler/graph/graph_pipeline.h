// The graph passes in the order a model build runs them: one list in one place, like the
// lowering pipeline's.
#pragma once

#include <vector>

#include "compiler/graph/graph_pass.h"

namespace tunefarm::graph {

// common_subexpression, dead_code, fuse_ops. Constant folding, inference simplification, scale
// folding, layout rewrite and weight pre-packing join this list as they land.
std::vector<GraphPass> DefaultGraphPasses();

}  // namespace tunefarm::graph
