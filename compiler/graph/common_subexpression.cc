#include "compiler/graph/common_subexpression.h"

#include <cstring>
#include <map>
#include <tuple>
#include <vector>

#include "compiler/graph/graph_rebuilder.h"

namespace tunefarm::graph {
namespace {

// Constants compared by bytes only up to this size: larger ones (weights) are never duplicates
// worth a full comparison.
constexpr size_t kMaxComparedConstantBytes = 1 << 16;

bool SameConstant(const Graph& graph, ValueId a, ValueId b) {
  const runtime::NDArray* x = graph.ConstantData(a);
  const runtime::NDArray* y = graph.ConstantData(b);
  if (x == nullptr || y == nullptr) return false;
  const DLDataType dx = x->dtype(), dy = y->dtype();
  if (dx.code != dy.code || dx.bits != dy.bits || dx.lanes != dy.lanes) return false;
  if (x->shape() != y->shape() || x->NumBytes() > kMaxComparedConstantBytes) return false;
  return std::memcmp(x->data(), y->data(), x->NumBytes()) == 0;
}

}  // namespace

absl::StatusOr<Graph> EliminateCommonSubexpressions(Graph graph) {
  // Small constants first: each maps to the first equal one.
  std::vector<ValueId> canonical(graph.values().size());
  std::vector<ValueId> small_constants;
  for (ValueId id = 0; id < static_cast<ValueId>(graph.values().size()); ++id) {
    canonical[id] = id;
    if (graph.value(id).kind != ValueKind::kConstant) continue;
    for (ValueId earlier : small_constants) {
      if (SameConstant(graph, earlier, id)) {
        canonical[id] = earlier;
        break;
      }
    }
    if (canonical[id] == id) small_constants.push_back(id);
  }
  GraphRebuilder rebuilt(graph);
  for (ValueId id = 0; id < static_cast<ValueId>(canonical.size()); ++id) {
    if (canonical[id] != id) rebuilt.Replace(id, rebuilt.Map(canonical[id]));
  }
  // Nodes keyed by op and (canonical) inputs; attributes compared within a key.
  std::map<std::tuple<OpKind, std::vector<ValueId>>, std::vector<const Node*>> seen;
  for (const Node& node : graph.nodes()) {
    std::vector<ValueId> inputs;
    for (ValueId input : node.inputs) inputs.push_back(canonical[input]);
    std::vector<const Node*>& candidates = seen[{node.op, inputs}];
    const Node* same = nullptr;
    for (const Node* earlier : candidates) {
      if (earlier->attrs == node.attrs && earlier->outputs.size() == node.outputs.size()) {
        same = earlier;
        break;
      }
    }
    if (same == nullptr) {
      candidates.push_back(&node);
      rebuilt.Copy(node);
      continue;
    }
    for (size_t i = 0; i < node.outputs.size(); ++i) {
      canonical[node.outputs[i]] = canonical[same->outputs[i]];
      rebuilt.Replace(node.outputs[i], rebuilt.Map(same->outputs[i]));
    }
  }
  return rebuilt.Finish();
}

}  // namespace tunefarm::graph
