// Operator fusion: partitions a graph's nodes into groups that each become one kernel. A group
// has at most one anchor (a conv2d/gemm/pool, kOutEWiseFusable, or a reduction) with the
// elementwise and broadcast ops after it computed in its output tile (bias, batch-norm shift,
// residual add, relu/clip), or is a chain of injective ops, or injective ops feeding a reduction.
// A node joins the group of its immediate post-dominator only when every op on every path
// between them fits, so no intermediate of a group is read from outside it.
#pragma once

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler/graph/graph.h"
#include "compiler/graph/op_registry.h"

namespace tunefarm::graph {

struct FusedGroup {
  std::vector<int> nodes;  // indices into graph.nodes(), in node order
  int anchor = -1;         // the group's conv/gemm/pool/reduction; -1 for injective chains
  PatternKind kind = PatternKind::kElementwise;  // the highest kind among its nodes
};

struct FusionPlan {
  std::vector<FusedGroup> groups;  // in the order their last node runs
  std::vector<int> group_of;       // per node
};

// At most this many nodes in one group (a long chain of elementwise ops stays cheap to compile).
inline constexpr int kMaxFusedGroupSize = 64;

FusionPlan PlanFusion(const Graph& graph);

// The graph with every node's `fused_group` set from PlanFusion (the pass of the pipeline).
absl::StatusOr<Graph> FuseOps(Graph graph);

// One line per group: "group 3 [conv2d+add+relu] anchor %12 -> %15".
std::string DescribeFusion(const Graph& graph, const FusionPlan& plan);

}  // namespace tunefarm::graph
