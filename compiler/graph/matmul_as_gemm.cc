#include "compiler/graph/matmul_as_gemm.h"

#include "absl/strings/str_cat.h"
#include "compiler/graph/graph_rebuilder.h"

namespace tunefarm::graph {
namespace {

// The one reader of `value` when there is exactly one node reading it (and it is no graph
// output), else -1.
int SoleReader(const Graph& graph, ValueId value) {
  for (const auto& out : graph.outputs()) {
    if (out.value == value) return -1;
  }
  int reader = -1;
  for (size_t n = 0; n < graph.nodes().size(); ++n) {
    for (ValueId in : graph.nodes()[n].inputs) {
      if (in != value) continue;
      if (reader >= 0 && reader != static_cast<int>(n)) return -1;
      reader = static_cast<int>(n);
    }
  }
  return reader;
}

bool IsFloat32(const TensorType& t) { return t.dtype.code == kDLFloat && t.dtype.bits == 32; }

// The dequantize producing `v`, when it has one scale and one zero point (so that it commutes
// with a reshape) or, with `constant`, when all its inputs are constants (a QDQ model's weight).
const Node* Dequantize(const Graph& graph, ValueId v, bool constant) {
  const Value& value = graph.value(v);
  if (value.kind != ValueKind::kNodeOutput) return nullptr;
  const Node& node = graph.nodes()[value.index];
  if (node.op != OpKind::kDequantize || node.inputs.size() != 3) return nullptr;
  for (size_t i = constant ? 0 : 1; i < 3; ++i) {
    const ValueId in = node.inputs[i];
    if (constant
            ? graph.ConstantData(in) == nullptr
            : graph.ConstantData(in) == nullptr || graph.ConstantData(in)->NumElements() != 1) {
      return nullptr;
    }
  }
  return &node;
}

}  // namespace

absl::StatusOr<Graph> RewriteMatmulAsGemm(Graph graph) {
  GraphRebuilder rebuilt(graph);
  std::vector<bool> absorbed(graph.nodes().size(), false);  // bias adds taken into a gemm
  for (size_t n = 0; n < graph.nodes().size(); ++n) {
    const Node& node = graph.nodes()[n];
    if (absorbed[n]) continue;
    // The weight: a constant, or a QDQ model's dequantized constant (quantized_dense then
    // makes the gemm int8).
    const bool candidate = node.op == OpKind::kMatMul && node.inputs.size() == 2 &&
                           (graph.ConstantData(node.inputs[1]) != nullptr ||
                            Dequantize(graph, node.inputs[1], true) != nullptr);
    const TensorType* a = candidate ? &graph.value(node.inputs[0]).type : nullptr;
    const TensorType* b = candidate ? &graph.value(node.inputs[1]).type : nullptr;
    if (!candidate || a->rank() < 2 || b->rank() != 2 || !IsFloat32(*a) || !IsFloat32(*b)) {
      rebuilt.Copy(node);
      continue;
    }
    const int64_t k = b->shape[0], cols = b->shape[1];
    int64_t rows = 1;
    for (int d = 0; d + 1 < a->rank(); ++d) rows *= a->shape[d];
    std::vector<int64_t> out_shape(a->shape.begin(), a->shape.end() - 1);
    out_shape.push_back(cols);
    // A following Add of a constant [N] (or [1, N]) vector becomes the gemm's C.
    const ValueId product = node.outputs[0];
    const int reader = SoleReader(graph, product);
    ValueId bias = -1;
    if (reader >= 0 && graph.nodes()[reader].op == OpKind::kAdd) {
      const Node& add = graph.nodes()[reader];
      const ValueId other = add.inputs[0] == product ? add.inputs[1] : add.inputs[0];
      const TensorType& t = graph.value(other).type;
      int64_t count = 1;
      for (int64_t d : t.shape) count *= d;
      if (graph.ConstantData(other) != nullptr && IsFloat32(t) && count == cols &&
          (t.shape.empty() ? cols == 1 : t.shape.back() == cols) &&
          graph.value(add.outputs[0]).type.shape == out_shape) {
        bias = other;
      }
    }
    Graph& g = rebuilt.graph();
    // An unnamed matmul's parts are unnamed too (names must be unique; empty ones are exempt).
    auto part = [&](const char* suffix) {
      return node.name.empty() ? std::string() : absl::StrCat(node.name, suffix);
    };
    // A per-tensor dequantized A: its quantized values reshaped, then dequantized, so that the
    // gemm reads a dequantize as quantized_dense looks for.
    const Node* dq = Dequantize(graph, node.inputs[0], false);
    absl::StatusOr<std::vector<ValueId>> rows_view = g.AddOp(
        OpKind::kReshape, part("/rows"), Attributes{{"shape", std::vector<int64_t>{rows, k}}},
        {rebuilt.Map(dq != nullptr ? dq->inputs[0] : node.inputs[0])});
    if (!rows_view.ok()) return rows_view.status();
    if (dq != nullptr) {
      rows_view =
          g.AddOp(OpKind::kDequantize, part("/rows_dequantized"), dq->attrs,
                  {(*rows_view)[0], rebuilt.Map(dq->inputs[1]), rebuilt.Map(dq->inputs[2])});
      if (!rows_view.ok()) return rows_view.status();
    }
    std::vector<ValueId> inputs = {(*rows_view)[0], rebuilt.Map(node.inputs[1])};
    if (bias >= 0) {
      absl::StatusOr<std::vector<ValueId>> flat =
          g.AddOp(OpKind::kReshape, part("/bias"),
                  Attributes{{"shape", std::vector<int64_t>{cols}}}, {rebuilt.Map(bias)});
      if (!flat.ok()) return flat.status();
      inputs.push_back((*flat)[0]);
    }
    absl::StatusOr<std::vector<ValueId>> gemm =
        g.AddOp(OpKind::kGemm, part("/gemm"), Attributes{}, std::move(inputs));
    if (!gemm.ok()) return gemm.status();
    Node back{OpKind::kReshape, node.name, Attributes{{"shape", out_shape}}, {(*gemm)[0]}, {}};
    if (bias >= 0) {
      absorbed[reader] = true;
      rebuilt.CopyAs(node, back);
      // The add's output is now the reshaped gemm's.
      rebuilt.Replace(graph.nodes()[reader].outputs[0], rebuilt.Map(product));
    } else {
      rebuilt.CopyAs(node, std::move(back));
    }
  }
  return rebuilt.Finish();
}

}  // namespace tunefarm::graph
