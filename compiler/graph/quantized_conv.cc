#include "compiler/graph/quantized_conv.h"

#include <optional>

#include "absl/strings/str_cat.h"
#include "compiler/graph/graph_rebuilder.h"
#include "compiler/graph/quantized_operands.h"
#include "runtime/data_type.h"

namespace tunefarm::graph {
namespace {

bool IsUint8(const Graph& g, ValueId v) {
  return runtime::SameDataType(g.value(v).type.dtype, DLDataType{kDLUInt, 8, 1});
}

// A dequantize of uint8 with one positive scale and one zero point: its (scale, zero point).
std::optional<std::pair<double, int64_t>> PerTensorUint8(const Graph& g, const Node& dq) {
  if (dq.op != OpKind::kDequantize || !IsUint8(g, dq.inputs[0])) return std::nullopt;
  const std::optional<std::vector<double>> s = ConstantElements(g, dq.inputs[1]);
  const std::optional<std::vector<double>> z = ConstantElements(g, dq.inputs[2]);
  if (!s || !z || s->size() != 1 || z->size() != 1 || (*s)[0] <= 0) return std::nullopt;
  return std::pair{(*s)[0], static_cast<int64_t>((*z)[0])};
}

// max_pool2d(dequantize(q)) -> dequantize(max_pool2d(q)) for a per-tensor uint8 q.
absl::StatusOr<Graph> PoolBeforeDequantize(const Graph& graph) {
  GraphRebuilder rebuilt(graph);
  for (const Node& node : graph.nodes()) {
    const Node* dq = node.op == OpKind::kMaxPool2d && node.inputs.size() == 1
                         ? ProducerOf(graph, node.inputs[0], OpKind::kDequantize)
                         : nullptr;
    if (dq == nullptr || !PerTensorUint8(graph, *dq)) {
      rebuilt.Copy(node);
      continue;
    }
    Graph& g = rebuilt.graph();
    absl::StatusOr<std::vector<ValueId>> pooled =
        g.AddOp(OpKind::kMaxPool2d, node.name, node.attrs, {rebuilt.Map(dq->inputs[0])});
    if (!pooled.ok()) return pooled.status();
    absl::StatusOr<std::vector<ValueId>> out =
        g.AddOp(OpKind::kDequantize, node.name.empty() ? "" : node.name + "/dequantize", dq->attrs,
                {(*pooled)[0], rebuilt.Map(dq->inputs[1]), rebuilt.Map(dq->inputs[2])});
    if (!out.ok()) return out.status();
    rebuilt.Replace(node.outputs[0], (*out)[0]);
  }
  return rebuilt.Finish();
}

// What the rewrite of one conv needs, all read from constants.
struct QuantizedConv {
  ValueId x_q = -1;  // the uint8 data
  int64_t x_zero_point = 0;
  runtime::NDArray weight;  // int8 [O, C, KH, KW]
  std::vector<int32_t> sum;
  std::vector<float> scale, bias;  // [O]: x's scale times the filter's; the float bias
};

std::optional<QuantizedConv> MatchConv(const Graph& g, const Node& conv) {
  if (conv.op != OpKind::kConv2d || conv.inputs.size() < 2 ||
      conv.attrs.Int("groups", 1).value_or(0) != 1) {
    return std::nullopt;
  }
  const Node* dx = ProducerOf(g, conv.inputs[0], OpKind::kDequantize);
  const Node* dw = ProducerOf(g, conv.inputs[1], OpKind::kDequantize);
  if (dx == nullptr || dw == nullptr) return std::nullopt;
  const std::optional<std::pair<double, int64_t>> x = PerTensorUint8(g, *dx);
  std::optional<runtime::NDArray> w = Int8Constant(g, dw->inputs[0]);
  const std::optional<std::vector<double>> sw = ConstantElements(g, dw->inputs[1]);
  const std::optional<std::vector<double>> zw = ConstantElements(g, dw->inputs[2]);
  if (!x || !w || !sw || !zw || w->shape().size() != 4) return std::nullopt;
  for (double z : *zw) {
    if (z != 0) return std::nullopt;
  }
  const int64_t filters = w->shape()[0];
  const int64_t per_filter = w->NumElements() / filters;
  const bool per_channel = static_cast<int64_t>(sw->size()) == filters && filters > 1 &&
                           dw->attrs.Int("axis", 1).value_or(-1) % 4 == 0;
  if (sw->size() != 1 && !per_channel) return std::nullopt;
  std::vector<double> bias(static_cast<size_t>(filters), 0.0);
  if (conv.inputs.size() == 3) {
    const std::optional<std::vector<double>> given = KnownFloatValues(g, conv.inputs[2]);
    if (!given || given->size() != bias.size()) return std::nullopt;
    bias = *given;
  }
  QuantizedConv q;
  q.x_q = dx->inputs[0];
  q.x_zero_point = x->second;
  const auto* wp = static_cast<const int8_t*>(w->data());
  for (int64_t o = 0; o < filters; ++o) {
    int32_t sum = 0;
    for (int64_t i = 0; i < per_filter; ++i) sum += wp[o * per_filter + i];
    q.sum.push_back(sum);
    q.scale.push_back(static_cast<float>(x->first * (*sw)[sw->size() == 1 ? 0 : o]));
    q.bias.push_back(static_cast<float>(bias[o]));
  }
  q.weight = *std::move(w);
  return q;
}

absl::StatusOr<Graph> Int8Convs(const Graph& graph) {
  const std::vector<int> readers = ReaderCounts(graph);
  std::vector<std::optional<QuantizedConv>> matched(graph.nodes().size());
  std::vector<bool> dropped(graph.nodes().size(), false);
  for (size_t i = 0; i < graph.nodes().size(); ++i) {
    const Node& node = graph.nodes()[i];
    matched[i] = MatchConv(graph, node);
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
    const QuantizedConv& q = *matched[i];
    Graph& g = rebuilt.graph();
    // Constant names must be unique: an unnamed node is named by its place.
    const std::string base = node.name.empty() ? absl::StrCat("conv2d_int8_", i) : node.name;
    const int64_t filters = static_cast<int64_t>(q.sum.size());
    absl::StatusOr<runtime::NDArray> weight = q.weight.View(q.weight.shape());
    if (!weight.ok()) return weight.status();
    const DLDataType f32{kDLFloat, 32, 1};
    std::vector<ValueId> inputs = {
        rebuilt.Map(q.x_q), g.AddConstant(base + "/weight_int8", *std::move(weight)),
        g.AddConstant(base + "/w_sum", ArrayOf({filters}, DLDataType{kDLInt, 32, 1}, q.sum)),
        g.AddConstant(base + "/scale", ArrayOf({filters}, f32, q.scale)),
        g.AddConstant(base + "/bias", ArrayOf({filters}, f32, q.bias))};
    Attributes attrs{{"x_zero_point", q.x_zero_point}};
    for (const char* name : {"strides", "pads", "dilations"}) {
      if (node.attrs.Has(name)) attrs.Set(name, *node.attrs.Ints(name, {}));
    }
    absl::StatusOr<std::vector<ValueId>> out =
        g.AddOp(OpKind::kConv2dInt8, node.name, std::move(attrs), std::move(inputs));
    if (!out.ok()) return out.status();
    rebuilt.Replace(node.outputs[0], (*out)[0]);
  }
  return rebuilt.Finish();
}

}  // namespace

absl::StatusOr<Graph> RewriteQuantizedConv(Graph graph) {
  absl::StatusOr<Graph> pooled = PoolBeforeDequantize(graph);
  if (!pooled.ok()) return pooled.status();
  return Int8Convs(*pooled);
}

}  // namespace tunefarm::graph
