#include "compiler/graph/graph_pipeline.h"

#include "compiler/graph/common_subexpression.h"
#include "compiler/graph/dead_code.h"
#include "compiler/graph/fusion.h"

namespace tunefarm::graph {

std::vector<GraphPass> DefaultGraphPasses() {
  return {
      {"common_subexpression", EliminateCommonSubexpressions},
      {"dead_code", EliminateDeadCode},
      {"fuse_ops", FuseOps},
  };
}

}  // namespace tunefarm::graph
