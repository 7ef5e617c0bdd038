#include "compiler/graph/fold_scales.h"

#include <cstring>

#include "absl/strings/str_cat.h"
#include "compiler/graph/graph_rebuilder.h"

namespace tunefarm::graph {
namespace {

bool IsFloat32(const DLDataType& t) { return t.code == kDLFloat && t.bits == 32 && t.lanes == 1; }

// The per-channel values of a float32 constant shaped to broadcast along axis 1 of a 4-D
// tensor with `channels` channels ([C,1,1] or [1,C,1,1]), or null.
const float* PerChannel(const Graph& g, ValueId id, int64_t channels) {
  const runtime::NDArray* a = g.ConstantData(id);
  if (a == nullptr || !IsFloat32(a->dtype())) return nullptr;
  const std::vector<int64_t>& s = a->shape();
  const bool ok =
      (s == std::vector<int64_t>{channels, 1, 1}) || (s == std::vector<int64_t>{1, channels, 1, 1});
  return ok ? static_cast<const float*>(a->data()) : nullptr;
}

// How many nodes read each value, graph outputs counted as readers.
std::vector<int> Readers(const Graph& g) {
  std::vector<int> readers(g.values().size(), 0);
  for (const Node& n : g.nodes()) {
    for (ValueId in : n.inputs) ++readers[in];
  }
  for (const GraphOutput& o : g.outputs()) ++readers[o.value];
  return readers;
}

// A conv2d being rebuilt: its weight and bias as new constants.
struct FoldedConv {
  const Node* node = nullptr;
  runtime::NDArray weight, bias;
  int64_t out_channels = 0;
};

absl::StatusOr<FoldedConv> Start(const Graph& g, const Node& conv) {
  FoldedConv f;
  f.node = &conv;
  const runtime::NDArray* w = g.ConstantData(conv.inputs[1]);
  f.out_channels = w->shape()[0];
  absl::StatusOr<runtime::NDArray> weight = runtime::NDArray::Empty(w->shape(), w->dtype());
  if (!weight.ok()) return weight.status();
  std::memcpy(weight->data(), w->data(), w->NumBytes());
  f.weight = *std::move(weight);
  absl::StatusOr<runtime::NDArray> bias = runtime::NDArray::Empty({f.out_channels}, w->dtype());
  if (!bias.ok()) return bias.status();
  f.bias = *std::move(bias);
  auto* b = static_cast<float*>(f.bias.data());
  const runtime::NDArray* given =
      conv.inputs.size() == 3 ? g.ConstantData(conv.inputs[2]) : nullptr;
  for (int64_t o = 0; o < f.out_channels; ++o) {
    b[o] = given != nullptr ? static_cast<const float*>(given->data())[o] : 0.0f;
  }
  return f;
}

}  // namespace

absl::StatusOr<Graph> FoldScales(Graph graph) {
  const std::vector<int> readers = Readers(graph);
  // The conv2d nodes whose weights (and bias, if any) are float32 constants, by output value.
  std::vector<int> conv_of(graph.values().size(), -1);
  for (size_t n = 0; n < graph.nodes().size(); ++n) {
    const Node& node = graph.nodes()[n];
    if (node.op != OpKind::kConv2d || node.inputs.size() < 2) continue;
    const runtime::NDArray* w = graph.ConstantData(node.inputs[1]);
    const bool bias_ok = node.inputs.size() == 2 || graph.ConstantData(node.inputs[2]) != nullptr;
    if (w != nullptr && IsFloat32(w->dtype()) && w->ndim() == 4 && bias_ok) {
      conv_of[node.outputs[0]] = static_cast<int>(n);
    }
  }
  // Walk each single-reader chain conv -> mul(scale) / add(shift) ... and note what folds.
  std::vector<char> folded_away(graph.nodes().size(), 0);
  std::vector<ValueId> chain_end(graph.nodes().size(), -1);  // per conv: the last folded value
  std::vector<FoldedConv> convs;
  std::vector<int> conv_slot(graph.nodes().size(), -1);
  for (size_t n = 0; n < graph.nodes().size(); ++n) {
    const Node& node = graph.nodes()[n];
    if (node.op != OpKind::kMul && node.op != OpKind::kAdd) continue;
    for (int side = 0; side < 2; ++side) {
      const ValueId x = node.inputs[side], k = node.inputs[1 - side];
      // `x` is a conv's output or the end of a chain already folded into one.
      int conv = conv_of[x];
      if (conv < 0 || readers[x] != 1) continue;
      const int64_t channels = graph.value(x).type.shape[1];
      const float* values = PerChannel(graph, k, channels);
      if (values == nullptr ||
          graph.value(node.outputs[0]).type.shape != graph.value(x).type.shape) {
        continue;
      }
      if (conv_slot[conv] < 0) {
        absl::StatusOr<FoldedConv> f = Start(graph, graph.nodes()[conv]);
        if (!f.ok()) return f.status();
        conv_slot[conv] = static_cast<int>(convs.size());
        convs.push_back(*std::move(f));
      }
      FoldedConv& f = convs[conv_slot[conv]];
      auto* b = static_cast<float*>(f.bias.data());
      if (node.op == OpKind::kMul) {
        auto* w = static_cast<float*>(f.weight.data());
        const int64_t per_channel = f.weight.NumElements() / f.out_channels;
        for (int64_t o = 0; o < f.out_channels; ++o) {
          for (int64_t i = 0; i < per_channel; ++i) w[o * per_channel + i] *= values[o];
          b[o] *= values[o];
        }
      } else {
        for (int64_t o = 0; o < f.out_channels; ++o) b[o] += values[o];
      }
      folded_away[n] = 1;
      chain_end[conv] = node.outputs[0];
      conv_of[node.outputs[0]] = conv;
      break;
    }
  }
  GraphRebuilder rebuilt(graph);
  for (size_t n = 0; n < graph.nodes().size(); ++n) {
    const Node& node = graph.nodes()[n];
    if (folded_away[n]) continue;
    if (conv_slot[n] < 0) {
      rebuilt.Copy(node);
      continue;
    }
    FoldedConv& f = convs[conv_slot[n]];
    Graph& g = rebuilt.graph();
    Node conv = node;
    conv.inputs = {rebuilt.Map(node.inputs[0]),
                   g.AddConstant(absl::StrCat(node.name, ".folded_weight"), std::move(f.weight)),
                   g.AddConstant(absl::StrCat(node.name, ".folded_bias"), std::move(f.bias))};
    const Value& end = graph.value(chain_end[n]);
    std::vector<ValueId> out = g.AddNode(std::move(conv), {end.type}, {end.name});
    rebuilt.Replace(chain_end[n], out[0]);
  }
  return rebuilt.Finish();
}

}  // namespace tunefarm::graph
