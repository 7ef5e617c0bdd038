#include "compiler/graph/quantized_dense.h"

#include <optional>

#include "absl/strings/str_cat.h"
#include "compiler/graph/graph_rebuilder.h"
#include "compiler/graph/quantized_operands.h"
#include "compiler/topi/dense_int8.h"
#include "runtime/data_type.h"

namespace tunefarm::graph {
namespace {

constexpr DLDataType kDenseU8{kDLUInt, 8, 1}, kDenseI8{kDLInt, 8, 1}, kDenseF32{kDLFloat, 32, 1};

// What the rewrite of one gemm needs, all read from constants.
struct QuantizedGemm {
  ValueId x_q = -1;  // the uint8 activations
  int64_t x_zero_point = 0;
  std::vector<int8_t> weight;  // [N][K]
  int64_t n = 0, k = 0;
  std::vector<float> scale, bias;  // [N]: x's scale times the row's, times alpha; beta * C
};

std::optional<QuantizedGemm> Match(const Graph& g, const Node& gemm) {
  if (gemm.op != OpKind::kGemm || gemm.inputs.size() < 2) return std::nullopt;
  if (gemm.attrs.Int("trans_a", 0).value_or(1) != 0 || gemm.attrs.Int("b_block", 0).value_or(1)) {
    return std::nullopt;
  }
  const bool trans_b = gemm.attrs.Int("trans_b", 0).value_or(0) != 0;
  const double alpha = gemm.attrs.Float("alpha", 1.0).value_or(0);
  const double beta = gemm.attrs.Float("beta", 1.0).value_or(0);
  const Node* dx = ProducerOf(g, gemm.inputs[0], OpKind::kDequantize);
  const Node* dw = ProducerOf(g, gemm.inputs[1], OpKind::kDequantize);
  if (dx == nullptr || dw == nullptr || alpha == 0) return std::nullopt;
  QuantizedGemm q;
  // A: uint8 with one scale and one zero point.
  q.x_q = dx->inputs[0];
  const std::optional<std::vector<double>> sx = ConstantElements(g, dx->inputs[1]);
  const std::optional<std::vector<double>> zx = ConstantElements(g, dx->inputs[2]);
  if (!runtime::SameDataType(g.value(q.x_q).type.dtype, kDenseU8) || !sx || !zx ||
      sx->size() != 1 || zx->size() != 1) {
    return std::nullopt;
  }
  q.x_zero_point = static_cast<int64_t>((*zx)[0]);
  // B: a constant int8 [N, K] (trans_b) or [K, N], one scale per row of N or one in all, zero
  // points 0.
  const std::optional<runtime::NDArray> w = Int8Constant(g, dw->inputs[0]);
  const std::optional<std::vector<double>> sw = ConstantElements(g, dw->inputs[1]);
  const std::optional<std::vector<double>> zw = ConstantElements(g, dw->inputs[2]);
  if (!w || !sw || !zw || w->shape().size() != 2) return std::nullopt;
  for (double z : *zw) {
    if (z != 0) return std::nullopt;
  }
  q.n = w->shape()[trans_b ? 0 : 1];
  q.k = w->shape()[trans_b ? 1 : 0];
  const int64_t n_axis = trans_b ? 0 : 1;
  const int64_t axis = dw->attrs.Int("axis", 1).value_or(-1);
  const bool per_row =
      sw->size() == static_cast<size_t>(q.n) && q.n > 1 && (axis == n_axis || axis == n_axis - 2);
  if (q.k % 4 != 0 || (sw->size() != 1 && !per_row)) return std::nullopt;
  // C: a constant float vector of N (or [1, N]).
  std::vector<double> c(static_cast<size_t>(q.n), 0.0);
  if (gemm.inputs.size() == 3) {
    const std::optional<std::vector<double>> given = KnownFloatValues(g, gemm.inputs[2]);
    const TensorType& t = g.value(gemm.inputs[2]).type;
    if (!given || !runtime::SameDataType(t.dtype, kDenseF32) ||
        given->size() != static_cast<size_t>(q.n) || (t.rank() == 2 && t.shape[0] != 1) ||
        t.rank() > 2) {
      return std::nullopt;
    }
    c = *given;
  }
  const auto* wp = static_cast<const int8_t*>(w->data());
  q.weight.resize(static_cast<size_t>(q.n * q.k));
  for (int64_t row = 0; row < q.n; ++row) {
    for (int64_t col = 0; col < q.k; ++col) {
      q.weight[row * q.k + col] = trans_b ? wp[row * q.k + col] : wp[col * q.n + row];
    }
  }
  for (int64_t row = 0; row < q.n; ++row) {
    const double s = (*sw)[sw->size() == 1 ? 0 : row];
    q.scale.push_back(static_cast<float>((*sx)[0] * s * alpha));
    q.bias.push_back(static_cast<float>(beta * c[row]));
  }
  return q;
}

}  // namespace

absl::StatusOr<Graph> RewriteQuantizedDense(Graph graph, int64_t lanes) {
  if (lanes <= 0) return absl::InvalidArgumentError("quantized_dense: lanes must be positive");
  const std::vector<int> readers = ReaderCounts(graph);
  std::vector<std::optional<QuantizedGemm>> matched(graph.nodes().size());
  std::vector<bool> dropped(graph.nodes().size(), false);
  for (size_t i = 0; i < graph.nodes().size(); ++i) {
    const Node& node = graph.nodes()[i];
    matched[i] = Match(graph, node);
    if (!matched[i]) continue;
    DropDequantizedOperands(graph, node, readers, dropped);
  }
  GraphRebuilder rebuilt(graph);
  for (size_t i = 0; i < graph.nodes().size(); ++i) {
    const Node& node = graph.nodes()[i];
    if (dropped[i]) continue;
    if (!matched[i]) {
      rebuilt.Copy(node);
      continue;
    }
    const QuantizedGemm& q = *matched[i];
    Graph& g = rebuilt.graph();
    std::vector<int32_t> sum(static_cast<size_t>(q.n), 0);
    for (int64_t row = 0; row < q.n; ++row) {
      for (int64_t col = 0; col < q.k; ++col) sum[row] += q.weight[row * q.k + col];
    }
    const std::vector<int8_t> packed = topi::PackDenseInt8Weight(q.weight.data(), q.n, q.k, lanes);
    // Constant names must be unique: an unnamed node is named by its place.
    const std::string base = node.name.empty() ? absl::StrCat("dense_int8_", i) : node.name;
    const ValueId w =
        g.AddConstant(base + "/packed_weight",
                      ArrayOf({(q.n + lanes - 1) / lanes, q.k / 4, lanes, 4}, kDenseI8, packed));
    const ValueId s = g.AddConstant(base + "/w_sum", ArrayOf({q.n}, {kDLInt, 32, 1}, sum));
    const ValueId scale = g.AddConstant(base + "/scale", ArrayOf({q.n}, kDenseF32, q.scale));
    const ValueId bias = g.AddConstant(base + "/bias", ArrayOf({q.n}, kDenseF32, q.bias));
    absl::StatusOr<std::vector<ValueId>> out =
        g.AddOp(OpKind::kDenseInt8, node.name, {{"x_zero_point", q.x_zero_point}},
                {rebuilt.Map(q.x_q), w, s, scale, bias});
    if (!out.ok()) return out.status();
    rebuilt.Replace(node.outputs[0], (*out)[0]);
  }
  return rebuilt.Finish();
}

}  // namespace tunefarm::graph
