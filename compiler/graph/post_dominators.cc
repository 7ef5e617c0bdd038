#include "compiler/graph/post_dominators.h"

#include <algorithm>

namespace tunefarm::graph {
namespace {

// Depth of each node in the tree (the sink is depth 0), for the lowest common ancestor.
int Lca(int a, int b, const std::vector<int>& parent, const std::vector<int>& depth) {
  auto depth_of = [&](int n) { return n == PostDominators::kSink ? 0 : depth[n]; };
  while (a != b) {
    if (depth_of(a) >= depth_of(b)) {
      a = parent[a];
    } else {
      b = parent[b];
    }
  }
  return a;
}

}  // namespace

PostDominators ComputePostDominators(const Graph& graph) {
  const std::vector<Node>& nodes = graph.nodes();
  const int n = static_cast<int>(nodes.size());
  PostDominators result;
  result.immediate.assign(n, PostDominators::kSink);
  result.consumers.assign(n, {});
  result.feeds_output.assign(n, false);
  for (int i = 0; i < n; ++i) {
    for (ValueId input : nodes[i].inputs) {
      const Value& v = graph.value(input);
      if (v.kind != ValueKind::kNodeOutput) continue;
      std::vector<int>& users = result.consumers[v.index];
      if (users.empty() || users.back() != i) users.push_back(i);
    }
  }
  for (const GraphOutput& output : graph.outputs()) {
    const Value& v = graph.value(output.value);
    if (v.kind == ValueKind::kNodeOutput) result.feeds_output[v.index] = true;
  }
  // Consumers come later in node order, so a backward sweep has every consumer's place in the
  // tree before its producer needs it.
  std::vector<int> depth(n, 0);
  for (int i = n - 1; i >= 0; --i) {
    int dom = 0;
    bool first = true;
    if (result.feeds_output[i] || result.consumers[i].empty()) {
      dom = PostDominators::kSink;
      first = false;
    }
    for (int user : result.consumers[i]) {
      dom = first ? user : Lca(dom, user, result.immediate, depth);
      first = false;
    }
    result.immediate[i] = dom;
    depth[i] = dom == PostDominators::kSink ? 1 : depth[dom] + 1;
  }
  return result;
}

}  // namespace tunefarm::graph
