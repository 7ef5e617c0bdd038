#include "compiler/graph/simplify_inference.h"

#include <cmath>

#include "absl/strings/str_cat.h"
#include "compiler/graph/graph_rebuilder.h"

namespace tunefarm::graph {
namespace {

bool IsFloat32(const DLDataType& t) { return t.code == kDLFloat && t.bits == 32 && t.lanes == 1; }

// The statistics of a batch norm whose four parameters are float32 constants of [C], or null.
struct Statistics {
  const float* gamma;
  const float* beta;
  const float* mean;
  const float* var;
  int64_t channels;
};

bool ReadStatistics(const Graph& g, const Node& node, Statistics* out) {
  if (node.inputs.size() != 5) return false;
  const TensorType& x = g.value(node.inputs[0]).type;
  if (x.shape.size() < 2 || !IsFloat32(x.dtype)) return false;
  const float* p[4];
  for (int i = 0; i < 4; ++i) {
    const runtime::NDArray* a = g.ConstantData(node.inputs[1 + i]);
    if (a == nullptr || !IsFloat32(a->dtype()) || a->shape() != std::vector<int64_t>{x.shape[1]}) {
      return false;
    }
    p[i] = static_cast<const float*>(a->data());
  }
  *out = Statistics{p[0], p[1], p[2], p[3], x.shape[1]};
  return true;
}

}  // namespace

absl::StatusOr<Graph> SimplifyInference(Graph graph) {
  GraphRebuilder rebuilt(graph);
  for (const Node& node : graph.nodes()) {
    Statistics st;
    if (node.op != OpKind::kBatchNorm || !ReadStatistics(graph, node, &st)) {
      rebuilt.Copy(node);
      continue;
    }
    absl::StatusOr<double> epsilon = node.attrs.Float("epsilon", 1e-5);
    if (!epsilon.ok()) return epsilon.status();
    const size_t rank = graph.value(node.inputs[0]).type.shape.size();
    // [C, 1, ...]: numpy broadcasting aligns at the right, so the channel axis (1) needs rank-2
    // trailing ones.
    std::vector<int64_t> shape(rank - 1, 1);
    shape[0] = st.channels;
    absl::StatusOr<runtime::NDArray> scale = runtime::NDArray::Empty(shape, {kDLFloat, 32, 1});
    absl::StatusOr<runtime::NDArray> shift = runtime::NDArray::Empty(shape, {kDLFloat, 32, 1});
    if (!scale.ok()) return scale.status();
    if (!shift.ok()) return shift.status();
    auto* sc = static_cast<float*>(scale->data());
    auto* sh = static_cast<float*>(shift->data());
    for (int64_t c = 0; c < st.channels; ++c) {
      // In double, as PyTorch's reference computes var + eps before the square root.
      const double s = st.gamma[c] / std::sqrt(static_cast<double>(st.var[c]) + *epsilon);
      sc[c] = static_cast<float>(s);
      sh[c] = static_cast<float>(st.beta[c] - st.mean[c] * s);
    }
    Graph& g = rebuilt.graph();
    const std::string& out_name = graph.value(node.outputs[0]).name;
    const ValueId scale_id = g.AddConstant(absl::StrCat(node.name, ".scale"), *std::move(scale));
    const ValueId shift_id = g.AddConstant(absl::StrCat(node.name, ".shift"), *std::move(shift));
    absl::StatusOr<std::vector<ValueId>> scaled = g.AddOp(
        OpKind::kMul, absl::StrCat(node.name, ".mul"), {}, {rebuilt.Map(node.inputs[0]), scale_id});
    if (!scaled.ok()) return scaled.status();
    absl::StatusOr<std::vector<ValueId>> shifted = g.AddOp(
        OpKind::kAdd, absl::StrCat(node.name, ".add"), {}, {(*scaled)[0], shift_id}, {out_name});
    if (!shifted.ok()) return shifted.status();
    rebuilt.Replace(node.outputs[0], (*shifted)[0]);
  }
  return rebuilt.Finish();
}

}  // namespace tunefarm::graph
