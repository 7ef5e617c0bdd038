#include "compiler/graph/pack_weights.h"

#include "absl/strings/str_cat.h"
#include "compiler/graph/graph_rebuilder.h"

namespace tunefarm::graph {

absl::StatusOr<Graph> PackWeights(Graph graph) {
  GraphRebuilder rebuilt(graph);
  for (const Node& node : graph.nodes()) {
    absl::StatusOr<int64_t> trans_b = node.attrs.Int("trans_b", 0);
    if (node.op != OpKind::kGemm || !trans_b.ok() || *trans_b == 0 || node.inputs.size() < 2 ||
        graph.ConstantData(node.inputs[1]) == nullptr) {
      rebuilt.Copy(node);
      continue;
    }
    Graph& g = rebuilt.graph();
    absl::StatusOr<std::vector<ValueId>> packed =
        g.AddOp(OpKind::kTranspose, absl::StrCat(node.name, ".pack_b"),
                Attributes{{"perm", std::vector<int64_t>{1, 0}}}, {rebuilt.Map(node.inputs[1])});
    if (!packed.ok()) return packed.status();
    Node copy = node;
    copy.attrs.Set("trans_b", int64_t{0});
    for (size_t i = 0; i < copy.inputs.size(); ++i) {
      copy.inputs[i] = i == 1 ? (*packed)[0] : rebuilt.Map(node.inputs[i]);
    }
    rebuilt.CopyAs(node, std::move(copy));
  }
  return rebuilt.Finish();
}

}  // namespace tunefarm::graph
