#include "tuner/model_tasks.h"

#include <algorithm>
#include <map>

#include "compiler/graph/winograd_rewrite.h"

namespace tunefarm::tuner {
namespace {

// One value for all of an attribute's entries (the conv templates take one stride and one pad),
// or nullopt.
std::optional<int64_t> Uniform(const graph::Node& node, const char* name,
                               std::vector<int64_t> fallback) {
  absl::StatusOr<std::vector<int64_t>> v = node.attrs.Ints(name, std::move(fallback));
  if (!v.ok() || v->empty()) return std::nullopt;
  for (int64_t x : *v) {
    if (x != v->front()) return std::nullopt;
  }
  return v->front();
}

bool IsFloat32(const graph::TensorType& t) {
  return t.dtype.code == kDLFloat && t.dtype.bits == 32 && t.dtype.lanes == 1;
}

// A conv node's one stride and one pad, as the conv templates take them; nullopt for uneven
// strides or padding, or dilation.
struct ConvWindow {
  int64_t stride = 1, pad = 0;
};
std::optional<ConvWindow> UniformWindow(const graph::Node& node) {
  std::optional<int64_t> stride = Uniform(node, "strides", {1, 1});
  std::optional<int64_t> pad = Uniform(node, "pads", {0, 0, 0, 0});
  std::optional<int64_t> dilation = Uniform(node, "dilations", {1, 1});
  if (!stride || !pad || dilation != 1) return std::nullopt;
  return ConvWindow{*stride, *pad};
}

std::optional<Workload> ConvWorkload(const graph::Graph& g, const graph::Node& node) {
  const std::vector<int64_t>& x = g.value(node.inputs[0]).type.shape;
  const std::vector<int64_t>& w = g.value(node.inputs[1]).type.shape;
  const std::optional<ConvWindow> window = UniformWindow(node);
  absl::StatusOr<int64_t> groups = node.attrs.Int("groups", 1);
  if (!window || !groups.ok() || x.size() != 4 || w.size() != 4) return std::nullopt;
  const int64_t stride = window->stride, pad = window->pad;
  if (*groups == 1) {
    return Workload{"conv2d", {x[0], x[1], x[2], x[3], w[0], w[2], w[3], stride, pad}};
  }
  if (*groups == x[1] && w[0] == x[1]) {
    return Workload{"depthwise_conv2d", {x[0], x[1], x[2], x[3], w[2], w[3], stride, pad}};
  }
  return std::nullopt;
}

// A blocked convolution as the NCHWc templates' workload, with the real channel counts and the
// blocks its layout has: the task is tuned in the layout the build gives the conv, so that its
// best record fits it as measured, with no layout transform around it that the tuning never saw.
std::optional<Workload> BlockedConvWorkload(const graph::Graph& g, const graph::Node& node) {
  const std::vector<int64_t>& x = g.value(node.inputs[0]).type.shape;
  const std::vector<int64_t>& w = g.value(node.inputs[1]).type.shape;
  const std::optional<ConvWindow> window = UniformWindow(node);
  if (!window) return std::nullopt;
  const int64_t stride = window->stride, pad = window->pad;
  if (node.op == graph::OpKind::kConv2dNchwc && x.size() == 5 && w.size() == 6) {
    const int64_t channels = node.attrs.Int("in_channels", x[1] * x[4]).value_or(0);
    const int64_t filters = node.attrs.Int("channels", w[0] * w[5]).value_or(0);
    return Workload{"conv2d_nchwc",
                    {x[0], channels, x[2], x[3], filters, w[2], w[3], stride, pad, x[4], w[5]}};
  }
  if (node.op == graph::OpKind::kConv2dWinogradNchwc && x.size() == 5) {
    // The weight is transformed: the channels and the oc block are read off the attributes and
    // the output, and the window is 3x3 with the padding the conv kept.
    const std::vector<int64_t>& y = g.value(node.outputs[0]).type.shape;
    const std::optional<int64_t> winograd_pad = graph::WinogradPadding(g, node);
    if (y.size() != 5 || !winograd_pad) return std::nullopt;
    const int64_t channels = node.attrs.Int("in_channels", x[1] * x[4]).value_or(0);
    const int64_t filters = node.attrs.Int("channels", y[1] * y[4]).value_or(0);
    return Workload{"conv2d_winograd_nchwc",
                    {x[0], channels, x[2], x[3], filters, 3, 3, 1, *winograd_pad, x[4], y[4]}};
  }
  if (node.op == graph::OpKind::kDepthwiseConv2dNchwc && x.size() == 5 && w.size() == 4) {
    const int64_t channels = node.attrs.Int("channels", x[1] * x[4]).value_or(0);
    return Workload{"depthwise_conv2d_nchwc",
                    {x[0], channels, x[2], x[3], w[1], w[2], stride, pad, x[4]}};
  }
  return std::nullopt;
}

std::optional<Workload> GemmWorkload(const graph::Graph& g, const graph::Node& node) {
  const std::vector<int64_t>& a = g.value(node.inputs[0]).type.shape;
  const std::vector<int64_t>& b = g.value(node.inputs[1]).type.shape;
  absl::StatusOr<int64_t> trans_a = node.attrs.Int("trans_a", 0);
  absl::StatusOr<int64_t> trans_b = node.attrs.Int("trans_b", 0);
  if (a.size() != 2 || b.size() != 2 || !trans_a.ok() || !trans_b.ok() || *trans_a != 0) {
    return std::nullopt;
  }
  if (*trans_b != 0) return Workload{"dense", {a[0], b[0], a[1]}};
  return Workload{"matmul", {a[0], b[1], a[1]}};
}

}  // namespace

std::optional<Workload> AnchorWorkload(const graph::Graph& graph, const graph::FusedGroup& group) {
  if (group.anchor < 0) return std::nullopt;
  return NodeWorkload(graph, graph.nodes()[group.anchor]);
}

std::optional<Workload> NodeWorkload(const graph::Graph& graph, const graph::Node& node) {
  if (node.inputs.size() < 2 || !IsFloat32(graph.value(node.inputs[0]).type)) return std::nullopt;
  switch (node.op) {
    case graph::OpKind::kConv2d:
      return ConvWorkload(graph, node);
    case graph::OpKind::kConv2dNchwc:
    case graph::OpKind::kConv2dWinogradNchwc:
    case graph::OpKind::kDepthwiseConv2dNchwc:
      return BlockedConvWorkload(graph, node);
    case graph::OpKind::kGemm:
    case graph::OpKind::kMatMul:
      return GemmWorkload(graph, node);
    default:
      return std::nullopt;
  }
}

std::vector<Workload> AnchorWorkloads(const graph::Graph& graph, const graph::FusedGroup& group,
                                      TaskAlgorithms algorithms) {
  std::optional<Workload> built = AnchorWorkload(graph, group);
  if (!built) return {};
  const graph::Node& node = graph.nodes()[group.anchor];
  if (algorithms == TaskAlgorithms::kBuilt || !graph::WinogradPadding(graph, node)) {
    return {*built};
  }
  return {Workload{"conv2d_nchwc", built->args}, Workload{"conv2d_winograd_nchwc", built->args}};
}

std::vector<ModelTask> ExtractModelTasks(const graph::Graph& graph, const graph::FusionPlan& plan,
                                         TaskAlgorithms algorithms) {
  std::vector<ModelTask> tasks;
  std::map<std::string, int> layers;  // the key of a layer class's first workload -> its number
  for (size_t i = 0; i < plan.groups.size(); ++i) {
    const std::vector<Workload> workloads = AnchorWorkloads(graph, plan.groups[i], algorithms);
    if (workloads.empty()) continue;
    const int layer =
        layers.try_emplace(workloads.front().Key(), static_cast<int>(layers.size())).first->second;
    for (const Workload& w : workloads) {
      auto same = std::find_if(tasks.begin(), tasks.end(),
                               [&](const ModelTask& t) { return t.workload == w; });
      if (same == tasks.end()) {
        tasks.push_back({w, {static_cast<int>(i)}, layer});
      } else {
        same->groups.push_back(static_cast<int>(i));
      }
    }
  }
  return tasks;
}

}  // namespace tunefarm::tuner
