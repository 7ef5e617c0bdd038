#include "compiler/graph/fusion.h"

#include <algorithm>
#include <deque>
#include <numeric>
#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "compiler/graph/graph_rebuilder.h"
#include "compiler/graph/op_kind.h"
#include "compiler/graph/post_dominators.h"
#include "compiler/graph/printer.h"

namespace tunefarm::graph {
namespace {

bool IsAnchorKind(PatternKind kind) {
  return kind == PatternKind::kOutEWiseFusable || kind == PatternKind::kCommReduce;
}

// Union-find over nodes; each root knows its group's anchor and size.
class Groups {
 public:
  explicit Groups(const Graph& graph)
      : parent_(graph.nodes().size()), anchor_(graph.nodes().size(), -1) {
    std::iota(parent_.begin(), parent_.end(), 0);
    size_.assign(parent_.size(), 1);
    for (size_t i = 0; i < parent_.size(); ++i) {
      if (IsAnchorKind(KindOf(graph, static_cast<int>(i)))) anchor_[i] = static_cast<int>(i);
    }
  }
  static PatternKind KindOf(const Graph& graph, int node) {
    return GetOpInfo(graph.nodes()[node].op).pattern;
  }
  int Find(int n) {
    while (parent_[n] != n) n = parent_[n] = parent_[parent_[n]];
    return n;
  }
  int Anchor(int n) { return anchor_[Find(n)]; }
  int Size(int n) { return size_[Find(n)]; }
  void Union(int a, int b) {
    a = Find(a);
    b = Find(b);
    if (a == b) return;
    if (anchor_[a] < 0) anchor_[a] = anchor_[b];
    parent_[b] = a;
    size_[a] += size_[b];
  }

 private:
  std::vector<int> parent_;
  std::vector<int> anchor_;
  std::vector<int> size_;
};

// The nodes on the paths from `from` to its post-dominator `to` (`to` included, `from` not).
std::vector<int> NodesBetween(int from, int to, const PostDominators& dom) {
  std::vector<int> found;
  std::set<int> seen;
  std::deque<int> frontier(dom.consumers[from].begin(), dom.consumers[from].end());
  while (!frontier.empty()) {
    int n = frontier.front();
    frontier.pop_front();
    if (!seen.insert(n).second) continue;
    found.push_back(n);
    if (n == to) continue;
    for (int user : dom.consumers[n]) frontier.push_back(user);
  }
  return found;
}

// Whether `node`'s group may take in `path` (the nodes up to its post-dominator, with their
// groups): one anchor at most, and every other op of a kind that anchor can carry.
bool CanFuse(const Graph& graph, Groups& groups, int node, const std::vector<int>& path) {
  std::set<int> roots = {groups.Find(node)};
  for (int n : path) roots.insert(groups.Find(n));
  int anchor = -1;
  int size = 0;
  for (int root : roots) {
    size += groups.Size(root);
    const int a = groups.Anchor(root);
    if (a < 0) continue;
    if (anchor >= 0 && anchor != a) return false;  // two anchors: two kernels
    anchor = a;
  }
  if (size > kMaxFusedGroupSize) return false;
  const PatternKind anchor_kind =
      anchor >= 0 ? Groups::KindOf(graph, anchor) : PatternKind::kInjective;
  const bool anchor_upstream = anchor >= 0 && groups.Find(anchor) == groups.Find(node);
  std::vector<int> members = path;
  members.push_back(node);
  for (int n : members) {
    if (anchor >= 0 && groups.Find(n) == groups.Find(anchor)) continue;  // already its group
    const PatternKind kind = Groups::KindOf(graph, n);
    if (kind == PatternKind::kOpaque) return false;
    if (anchor < 0) {
      if (kind > PatternKind::kInjective) return false;  // an injective chain
    } else if (anchor_upstream) {
      // The epilogue is computed in the anchor's output tile: elementwise and broadcast ops
      // only (a reduction's: elementwise).
      const PatternKind limit = anchor_kind == PatternKind::kCommReduce ? PatternKind::kElementwise
                                                                        : PatternKind::kBroadcast;
      if (kind > limit) return false;
    } else {
      // Injective ops feed a reduction that follows; a conv or gemm reads its inputs from
      // memory as they are (layout transforms are their own kernels).
      if (anchor_kind != PatternKind::kCommReduce || kind > PatternKind::kInjective) return false;
    }
  }
  return true;
}

}  // namespace

FusionPlan PlanFusion(const Graph& graph) {
  const int count = static_cast<int>(graph.nodes().size());
  const PostDominators dom = ComputePostDominators(graph);
  Groups groups(graph);
  for (int node = 0; node < count; ++node) {
    if (Groups::KindOf(graph, node) == PatternKind::kOpaque) continue;
    const int to = dom.immediate[node];
    if (to == PostDominators::kSink || dom.feeds_output[node]) continue;
    std::vector<int> path = NodesBetween(node, to, dom);
    if (!CanFuse(graph, groups, node, path)) continue;
    for (int n : path) groups.Union(node, n);
  }
  FusionPlan plan;
  plan.group_of.assign(count, -1);
  std::vector<int> group_of_root(count, -1);
  // Groups numbered by where they end, so they run in node order.
  std::vector<int> last(count, -1);
  for (int n = 0; n < count; ++n) last[groups.Find(n)] = n;
  std::vector<int> roots;
  for (int n = 0; n < count; ++n) {
    if (groups.Find(n) == n) roots.push_back(n);
  }
  std::sort(roots.begin(), roots.end(), [&](int a, int b) { return last[a] < last[b]; });
  for (int root : roots) {
    group_of_root[root] = static_cast<int>(plan.groups.size());
    FusedGroup g;
    g.anchor = groups.Anchor(root);
    plan.groups.push_back(g);
  }
  for (int n = 0; n < count; ++n) {
    const int index = group_of_root[groups.Find(n)];
    FusedGroup& g = plan.groups[index];
    g.nodes.push_back(n);
    g.kind = std::max(g.kind, Groups::KindOf(graph, n));
    plan.group_of[n] = index;
  }
  return plan;
}

absl::StatusOr<Graph> FuseOps(Graph graph) {
  const FusionPlan plan = PlanFusion(graph);
  GraphRebuilder rebuilt(graph);
  for (size_t i = 0; i < graph.nodes().size(); ++i) {
    Node node = graph.nodes()[i];
    node.fused_group = plan.group_of[i];
    rebuilt.Copy(node);
  }
  return rebuilt.Finish();
}

std::string DescribeFusion(const Graph& graph, const FusionPlan& plan) {
  std::string text;
  for (size_t i = 0; i < plan.groups.size(); ++i) {
    const FusedGroup& g = plan.groups[i];
    std::vector<std::string> ops;
    for (int n : g.nodes) ops.push_back(std::string(OpName(graph.nodes()[n].op)));
    const Node& last = graph.nodes()[g.nodes.back()];
    absl::StrAppend(&text, "group ", i, " [", absl::StrJoin(ops, "+"), "]");
    if (g.anchor >= 0) {
      absl::StrAppend(&text, " anchor ", ValueRef(graph, graph.nodes()[g.anchor].outputs[0]));
    }
    absl::StrAppend(&text, " -> ", ValueRef(graph, last.outputs[0]), "\n");
  }
  return text;
}

}  // namespace tunefarm::graph
