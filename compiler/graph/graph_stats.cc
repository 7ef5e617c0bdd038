#include "compiler/graph/graph_stats.h"

namespace tunefarm::graph {
namespace {

int64_t Product(const std::vector<int64_t>& dims) {
  int64_t p = 1;
  for (int64_t d : dims) p *= d;
  return p;
}

// Multiply-adds of one node (types are verified, so the products fit: each is at most the
// output's elements times one input's).
int64_t MultiplyAdds(const Graph& graph, const Node& node) {
  const TensorType& out = graph.value(node.outputs[0]).type;
  switch (node.op) {
    case OpKind::kConv2d: {
      const std::vector<int64_t>& w = graph.value(node.inputs[1]).type.shape;
      return Product(out.shape) * w[1] * w[2] * w[3];
    }
    case OpKind::kConv2dNchwc:         // [OB][CB][KH][KW][ic][oc]: the padded channels counted too
    case OpKind::kGroupConv2dNchwc: {  // [OB][K][KH][KW][b][b]: and the zeros between groups
      const std::vector<int64_t>& w = graph.value(node.inputs[1]).type.shape;
      return Product(out.shape) * w[1] * w[2] * w[3] * w[4];
    }
    case OpKind::kDepthwiseConv2dNchwc: {
      const std::vector<int64_t>& w = graph.value(node.inputs[1]).type.shape;
      return Product(out.shape) * w[1] * w[2];
    }
    case OpKind::kGemm: {
      const std::vector<int64_t>& a = graph.value(node.inputs[0]).type.shape;
      bool trans_a = node.attrs.Int("trans_a", 0).value_or(0) != 0;
      return Product(out.shape) * (trans_a ? a[0] : a[1]);
    }
    case OpKind::kMatMul: {
      const std::vector<int64_t>& a = graph.value(node.inputs[0]).type.shape;
      return Product(out.shape) * a.back();
    }
    default:
      return 0;
  }
}

}  // namespace

GraphStats ComputeGraphStats(const Graph& graph) {
  GraphStats stats;
  for (const Node& node : graph.nodes()) {
    ++stats.op_counts[std::string(OpName(node.op))];
    stats.flops += 2 * MultiplyAdds(graph, node);
  }
  for (const runtime::NDArray& c : graph.constants()) {
    stats.parameters += c.NumElements();
    stats.parameter_bytes += static_cast<int64_t>(c.NumBytes());
  }
  return stats;
}

}  // namespace tunefarm::graph
