#include "compiler/graph/winograd_rewrite.h"

#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/graph/graph_rebuilder.h"

namespace tunefarm::graph {
namespace {

bool AllEqual(const std::vector<int64_t>& v, int64_t x) {
  for (int64_t e : v) {
    if (e != x) return false;
  }
  return true;
}

}  // namespace

std::optional<int64_t> WinogradPadding(const Graph& graph, const Node& node) {
  if (node.op != OpKind::kConv2dNchwc && node.op != OpKind::kConv2dWinogradNchwc) {
    return std::nullopt;
  }
  if (node.outputs.size() != 1 || node.inputs.size() < 2) return std::nullopt;
  const std::vector<int64_t>& x = graph.value(node.inputs[0]).type.shape;
  const std::vector<int64_t>& w = graph.value(node.inputs[1]).type.shape;
  const std::vector<int64_t>& y = graph.value(node.outputs[0]).type.shape;
  if (x.size() != 5 || y.size() != 5 || w.size() != 6) return std::nullopt;
  // A Winograd conv's weight is already transformed ([a][a][OB][CB][ic][oc]).
  if (node.op == OpKind::kConv2dNchwc && (w[2] != 3 || w[3] != 3)) return std::nullopt;
  absl::StatusOr<std::vector<int64_t>> strides = node.attrs.Ints("strides", {1, 1});
  absl::StatusOr<std::vector<int64_t>> dilations = node.attrs.Ints("dilations", {1, 1});
  absl::StatusOr<std::vector<int64_t>> pads = node.attrs.Ints("pads", {0, 0, 0, 0});
  if (!strides.ok() || !dilations.ok() || !pads.ok() || pads->empty()) return std::nullopt;
  if (!AllEqual(*strides, 1) || !AllEqual(*dilations, 1)) return std::nullopt;
  const int64_t pad = pads->front();
  if ((pad != 0 && pad != 1) || !AllEqual(*pads, pad)) return std::nullopt;
  return pad;
}

int64_t WinogradTileFor(int64_t out_height, int64_t in_channels, int64_t out_channels) {
  // bench/winograd_bench on a 2-core AMD EPYC (AVX-512), 1 thread: F(4x4) beats the direct
  // conv's default 1.5-2.4x on ResNet-18's 56x56x64, 28x28x128 and 14x14x256 layers; at 7x7
  // its padded tiles waste too much, and with few channels the transforms outweigh the
  // product. Until the tuner chooses per layer by measurement, this is the rule.
  if (in_channels < 32 || out_channels < 32 || out_height < 14) return 0;
  return 4;
}

absl::StatusOr<int64_t> DefaultWinogradTile(const Graph& graph, const Node& node) {
  const std::vector<int64_t>& x = graph.value(node.inputs[0]).type.shape;
  const std::vector<int64_t>& y = graph.value(node.outputs[0]).type.shape;
  const int64_t in_channels = node.attrs.Int("in_channels", x[1] * x[4]).value_or(0);
  const int64_t channels = node.attrs.Int("channels", y[1] * y[4]).value_or(0);
  return WinogradTileFor(y[2], in_channels, channels);
}

absl::StatusOr<Graph> RewriteWinograd(Graph graph, const WinogradChooser& choose) {
  GraphRebuilder rebuilt(graph);
  for (const Node& node : graph.nodes()) {
    int64_t tile = 0;
    if (node.op == OpKind::kConv2dNchwc && WinogradPadding(graph, node)) {
      absl::StatusOr<int64_t> chosen = choose(graph, node);
      if (!chosen.ok()) return chosen.status();
      if (*chosen != 0 && *chosen != 2 && *chosen != 4 && *chosen != 6) {
        return absl::InvalidArgumentError(absl::StrCat(node.name, ": Winograd tile ", *chosen,
                                                       " (F(m x m, 3x3) takes m = 2, 4 or 6)"));
      }
      tile = *chosen;
    }
    if (tile == 0) {
      rebuilt.Copy(node);
      continue;
    }
    absl::StatusOr<std::vector<ValueId>> weight = rebuilt.graph().AddOp(
        OpKind::kWinogradWeight, node.name.empty() ? "" : absl::StrCat(node.name, ".winograd"),
        Attributes{{"tile", tile}}, {rebuilt.Map(node.inputs[1])});
    if (!weight.ok()) return weight.status();
    Node conv = node;
    conv.op = OpKind::kConv2dWinogradNchwc;
    conv.attrs.Set("tile", tile);
    conv.inputs = {rebuilt.Map(node.inputs[0]), weight->front()};
    if (node.inputs.size() == 3) conv.inputs.push_back(rebuilt.Map(node.inputs[2]));
    rebuilt.CopyAs(node, std::move(conv));
  }
  return rebuilt.Finish();
}

}  // namespace tunefarm::graph
