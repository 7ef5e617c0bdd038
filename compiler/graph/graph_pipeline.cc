#include "compiler/graph/graph_pipeline.h"

#include "compiler/graph/common_subexpression.h"
#include "compiler/graph/constant_folding.h"
#include "compiler/graph/dead_code.h"
#include "compiler/graph/fold_scales.h"
#include "compiler/graph/fusion.h"
#include "compiler/graph/pack_weights.h"
#include "compiler/graph/simplify_inference.h"

namespace tunefarm::graph {

std::vector<GraphPass> DefaultGraphPasses() {
  return {
      {"simplify_inference", SimplifyInference},
      {"fold_scales", FoldScales},
      {"pack_weights", PackWeights},
      {"constant_folding", FoldConstants},
      {"common_subexpression", EliminateCommonSubexpressions},
      {"dead_code", EliminateDeadCode},
      {"fuse_ops", FuseOps},
  };
}

}  // namespace tunefarm::graph
