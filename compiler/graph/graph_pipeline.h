// The graph passes in the order a model build runs them: one list in one place, like the
// lowering pipeline's.
#pragma once

#include <vector>

#include "compiler/graph/graph_pass.h"

namespace tunefarm::graph {

// simplify_inference, fold_scales, pack_weights, constant_folding, common_subexpression,
// dead_code, fuse_ops. The NCHWc layout rewrite joins this list when it lands.
std::vector<GraphPass> DefaultGraphPasses();

}  // namespace tunefarm::graph
