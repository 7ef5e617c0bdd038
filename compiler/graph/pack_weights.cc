#include "compiler/graph/pack_weights.h"

#include "absl/strings/str_cat.h"
#include "compiler/graph/graph_rebuilder.h"

namespace tunefarm::graph {
namespace {

// The number of output columns of a gemm with weight `b`.
int64_t Columns(const Graph& graph, const Node& node, int64_t trans_b) {
  const std::vector<int64_t>& b = graph.value(node.inputs[1]).type.shape;
  return b.size() == 2 ? b[trans_b != 0 ? 0 : 1] : 0;
}

}  // namespace

absl::StatusOr<Graph> PackWeights(Graph graph, int64_t column_block) {
  GraphRebuilder rebuilt(graph);
  for (const Node& node : graph.nodes()) {
    absl::StatusOr<int64_t> trans_a = node.attrs.Int("trans_a", 0);
    absl::StatusOr<int64_t> trans_b = node.attrs.Int("trans_b", 0);
    absl::StatusOr<int64_t> b_block = node.attrs.Int("b_block", 0);
    if (node.op != OpKind::kGemm || !trans_a.ok() || !trans_b.ok() || !b_block.ok() ||
        *b_block != 0 || node.inputs.size() < 2 || graph.ConstantData(node.inputs[1]) == nullptr) {
      rebuilt.Copy(node);
      continue;
    }
    const int64_t n = Columns(graph, node, *trans_b);
    // Many rows (a sequence through a Linear layer) are compute bound: blocks of two vectors
    // give the GEMM template's register tile two accumulators per row.
    const std::vector<int64_t>& a_shape = graph.value(node.inputs[0]).type.shape;
    const int64_t block =
        column_block > 0 && !a_shape.empty() && a_shape[0] >= 4 && n % (2 * column_block) == 0
            ? 2 * column_block
            : column_block;
    const bool pack = block > 0 && *trans_a == 0 && n > 0 && n % block == 0;
    if (!pack && *trans_b == 0) {
      rebuilt.Copy(node);
      continue;
    }
    Graph& g = rebuilt.graph();
    // An unnamed gemm's packing is unnamed too (names must be unique; empty ones are exempt).
    const std::string name = node.name.empty() ? "" : absl::StrCat(node.name, ".pack_b");
    absl::StatusOr<std::vector<ValueId>> packed =
        pack ? g.AddOp(OpKind::kPackGemmWeight, name,
                       Attributes{{"block", block}, {"trans_b", *trans_b}},
                       {rebuilt.Map(node.inputs[1])})
             : g.AddOp(OpKind::kTranspose, name, Attributes{{"perm", std::vector<int64_t>{1, 0}}},
                       {rebuilt.Map(node.inputs[1])});
    if (!packed.ok()) return packed.status();
    Node copy = node;
    copy.attrs.Set("trans_b", int64_t{0});
    if (pack) copy.attrs.Set("b_block", block);
    for (size_t i = 0; i < copy.inputs.size(); ++i) {
      copy.inputs[i] = i == 1 ? (*packed)[0] : rebuilt.Map(node.inputs[i]);
    }
    rebuilt.CopyAs(node, std::move(copy));
  }
  return rebuilt.Finish();
}

}  // namespace tunefarm::graph
