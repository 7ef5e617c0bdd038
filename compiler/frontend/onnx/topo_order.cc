#include "compiler/frontend/onnx/topo_order.h"

#include <map>
#include <queue>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace tunefarm::frontend::onnx {
namespace {

std::string Label(const ::onnx::NodeProto& node) {
  return absl::StrCat(node.op_type(), " node '", node.name(), "'");
}

}  // namespace

absl::StatusOr<std::vector<int>> TopologicalOrder(const ::onnx::GraphProto& graph,
                                                  const std::set<std::string>& defined) {
  const int n = graph.node_size();
  std::map<std::string, int> producer;
  for (int i = 0; i < n; ++i) {
    for (const std::string& out : graph.node(i).output()) {
      if (out.empty()) continue;
      if (defined.count(out) || !producer.emplace(out, i).second) {
        return absl::InvalidArgumentError(
            absl::StrCat(Label(graph.node(i)), " defines '", out, "', which is already defined"));
      }
    }
  }
  std::vector<int> pending(n, 0);
  std::vector<std::vector<int>> consumers(n);
  for (int i = 0; i < n; ++i) {
    for (const std::string& in : graph.node(i).input()) {
      if (in.empty() || defined.count(in)) continue;
      auto it = producer.find(in);
      if (it == producer.end()) {
        return absl::InvalidArgumentError(
            absl::StrCat(Label(graph.node(i)), " reads '", in, "', which nothing defines"));
      }
      ++pending[i];
      consumers[it->second].push_back(i);
    }
  }
  // Smallest index first, so a sorted file keeps its order.
  std::priority_queue<int, std::vector<int>, std::greater<int>> ready;
  for (int i = 0; i < n; ++i) {
    if (pending[i] == 0) ready.push(i);
  }
  std::vector<int> order;
  while (!ready.empty()) {
    int i = ready.top();
    ready.pop();
    order.push_back(i);
    for (int c : consumers[i]) {
      if (--pending[c] == 0) ready.push(c);
    }
  }
  if (static_cast<int>(order.size()) == n) return order;
  std::vector<std::string> stuck;
  for (int i = 0; i < n && stuck.size() < 5; ++i) {
    if (pending[i] > 0)
      stuck.push_back(absl::StrCat("'", graph.node(i).name(), "' (", graph.node(i).op_type(), ")"));
  }
  return absl::InvalidArgumentError(
      absl::StrCat("the graph has a cycle through the nodes ", absl::StrJoin(stuck, ", ")));
}

}  // namespace tunefarm::frontend::onnx
