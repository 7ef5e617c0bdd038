#include "compiler/graph/constant_folding.h"

#include <deque>

#include "compiler/graph/graph_rebuilder.h"
#include "compiler/graph/op_evaluate.h"

namespace tunefarm::graph {
namespace {

bool IsGraphOutput(const Graph& g, ValueId id) {
  for (const GraphOutput& out : g.outputs()) {
    if (out.value == id) return true;
  }
  return false;
}

// Folds the nodes `fold` accepts whose inputs are all constants.
absl::StatusOr<Graph> FoldNodesWhere(Graph graph, bool (*fold)(const Node&)) {
  GraphRebuilder rebuilt(graph);
  // Folded values, by source id: the inputs of later nodes may be among them.
  std::vector<const runtime::NDArray*> known(graph.values().size(), nullptr);
  for (ValueId id = 0; id < static_cast<ValueId>(graph.values().size()); ++id) {
    known[id] = graph.ConstantData(id);
  }
  std::deque<runtime::NDArray> folded_storage;  // a deque: pointers into it stay valid
  for (const Node& node : graph.nodes()) {
    std::vector<const runtime::NDArray*> inputs;
    size_t input_bytes = 0, output_bytes = 0;
    bool all_known = !node.inputs.empty();
    for (ValueId in : node.inputs) {
      all_known = all_known && known[in] != nullptr;
      if (known[in] != nullptr) input_bytes += known[in]->NumBytes();
      inputs.push_back(known[in]);
    }
    bool foldable = all_known && fold(node);
    for (ValueId out : node.outputs) {
      // A graph output stays computed by a kernel: the module's outputs are never its weights.
      foldable = foldable && !IsGraphOutput(graph, out);
      absl::StatusOr<size_t> bytes =
          runtime::NDArray::BytesFor(graph.value(out).type.shape, graph.value(out).type.dtype);
      if (!bytes.ok()) return bytes.status();
      output_bytes += *bytes;
    }
    // A Winograd weight is (m+2)^2 / 9 times its kernel by design, and computing it per run
    // would cost more than the conv saves: it is folded whatever its size. So is a QDQ model's
    // dequantized weight (4 times its int8 form, the size of the float model's): left a node, the
    // kernels that read it could not pack it and it would be dequantized on every run.
    const bool grows_by_design =
        node.op == OpKind::kWinogradWeight || node.op == OpKind::kDequantize;
    if (!foldable || (output_bytes > input_bytes + kMaxFoldedGrowthBytes && !grows_by_design)) {
      rebuilt.Copy(node);
      continue;
    }
    absl::StatusOr<std::vector<runtime::NDArray>> results = EvaluateOp(node, inputs);
    if (!results.ok()) return results.status();
    for (size_t i = 0; i < node.outputs.size(); ++i) {
      const ValueId out = node.outputs[i];
      folded_storage.push_back(std::move((*results)[i]));
      known[out] = &folded_storage.back();
      absl::StatusOr<runtime::NDArray> shared = known[out]->View(known[out]->shape());
      if (!shared.ok()) return shared.status();
      rebuilt.Replace(out, rebuilt.graph().AddConstant(graph.value(out).name, *std::move(shared)));
    }
  }
  return rebuilt.Finish();
}

bool AnyNodeFolds(const Node&) { return true; }

bool IsQuantizeOrDequantize(const Node& node) {
  return node.op == OpKind::kQuantize || node.op == OpKind::kDequantize;
}

}  // namespace

absl::StatusOr<Graph> FoldConstants(Graph graph) {
  return FoldNodesWhere(std::move(graph), AnyNodeFolds);
}

absl::StatusOr<Graph> FoldQuantizedWeights(Graph graph) {
  return FoldNodesWhere(std::move(graph), IsQuantizeOrDequantize);
}

}  // namespace tunefarm::graph
