#include "compiler/graph/graph_pipeline.h"

#include "compiler/graph/common_subexpression.h"
#include "compiler/graph/constant_folding.h"
#include "compiler/graph/dead_code.h"
#include "compiler/graph/fold_scales.h"
#include "compiler/graph/fusion.h"
#include "compiler/graph/layout_rewrite.h"
#include "compiler/graph/pack_weights.h"
#include "compiler/graph/simplify_inference.h"

namespace tunefarm::graph {

std::vector<GraphPass> DefaultGraphPasses(const KernelTarget& target, WinogradChooser winograd) {
  std::vector<GraphPass> passes = {
      {"simplify_inference", SimplifyInference},
      {"fold_scales", FoldScales},
      {"pack_weights", PackWeights},
  };
  if (!target.is_cuda()) {
    passes.push_back({"layout_rewrite", [cpu = target.cpu](Graph g) {
                        return RewriteLayoutNchwc(std::move(g), cpu);
                      }});
    passes.push_back({"winograd", [choose = std::move(winograd)](Graph g) {
                        return RewriteWinograd(std::move(g), choose);
                      }});
  }
  passes.push_back({"constant_folding", FoldConstants});
  passes.push_back({"common_subexpression", EliminateCommonSubexpressions});
  passes.push_back({"dead_code", EliminateDeadCode});
  passes.push_back({"fuse_ops", FuseOps});
  return passes;
}

}  // namespace tunefarm::graph
