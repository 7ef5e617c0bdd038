// The post-dominator tree of a graph's nodes: node d post-dominates node n when every path from n
// to the graph's outputs passes through d. Fusion merges a node into its immediate
// post-dominator when the ops on every path between them allow it.
#pragma once

#include <vector>

#include "compiler/graph/graph.h"

namespace tunefarm::graph {

struct PostDominators {
  // Immediate post-dominator of each node (by index); kSink when only the graph's outputs are.
  static constexpr int kSink = -1;
  std::vector<int> immediate;
  // The nodes that read each node's outputs (a node appears once however many it reads).
  std::vector<std::vector<int>> consumers;
  // Whether a node's output is also a graph output.
  std::vector<bool> feeds_output;
};

PostDominators ComputePostDominators(const Graph& graph);

}  // namespace tunefarm::graph
