// The graph passes in the order a model build runs them: one list in one place, like the
// lowering pipeline's.
#pragma once

#include <vector>

#include "compiler/graph/graph_pass.h"
#include "compiler/graph/kernel_target.h"
#include "compiler/graph/layout_rewrite.h"
#include "compiler/graph/winograd_rewrite.h"

namespace tunefarm::graph {

// simplify_inference, fold_scales, pack_weights, layout_rewrite (CPU targets: the NCHW[c]c
// layout for the CPU's vectors; GPU templates read NCHW), winograd (CPU targets: the 3x3 stride-1
// convs `winograd` chooses it for), constant_folding (which evaluates the packed weights),
// common_subexpression, dead_code, fuse_ops. The layout rewrite takes the blocks `layout` plans,
// where it is given.
std::vector<GraphPass> DefaultGraphPasses(const KernelTarget& target,
                                          WinogradChooser winograd = DefaultWinogradTile,
                                          ConvBlockPlanner layout = nullptr);

}  // namespace tunefarm::graph
