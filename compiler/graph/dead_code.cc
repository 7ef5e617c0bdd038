#include "compiler/graph/dead_code.h"

#include <vector>

#include "compiler/graph/graph_rebuilder.h"

namespace tunefarm::graph {

absl::StatusOr<Graph> EliminateDeadCode(Graph graph) {
  std::vector<bool> live_value(graph.values().size(), false);
  for (const GraphOutput& output : graph.outputs()) live_value[output.value] = true;
  // Nodes come after their producers, so one backward sweep marks everything live.
  const std::vector<Node>& nodes = graph.nodes();
  std::vector<bool> live_node(nodes.size(), false);
  for (size_t i = nodes.size(); i-- > 0;) {
    for (ValueId output : nodes[i].outputs) live_node[i] = live_node[i] || live_value[output];
    if (!live_node[i]) continue;
    for (ValueId input : nodes[i].inputs) live_value[input] = true;
  }
  GraphRebuilder rebuilt(graph);
  for (size_t i = 0; i < nodes.size(); ++i) {
    if (live_node[i]) rebuilt.Copy(nodes[i]);
  }
  return rebuilt.Finish();
}

}  // namespace tunefarm::graph
