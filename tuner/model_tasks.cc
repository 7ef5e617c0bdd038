#include "tuner/model_tasks.h"

#include <algorithm>
#include <map>

#include "compiler/graph/layout_rewrite.h"
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

// A blocked int8 conv as conv2d_int8's workload with its blocks ("...,pad,ic_block,lanes"): the
// data's channels as the layout padded them, the real filters.
std::optional<Workload> Int8ConvWorkload(const graph::Graph& g, const graph::Node& node) {
  const std::vector<int64_t>& x = g.value(node.inputs[0]).type.shape;
  const std::vector<int64_t>& w = g.value(node.inputs[1]).type.shape;
  const std::optional<ConvWindow> window = UniformWindow(node);
  if (!window || x.size() != 5 || w.size() != 7) return std::nullopt;
  const int64_t filters = node.attrs.Int("channels", w[0] * w[5]).value_or(0);
  return Workload{
      "conv2d_int8",
      {x[0], x[1] * x[4], x[2], x[3], filters, w[2], w[3], window->stride, window->pad, x[4], w[5]},
      "int8"};
}

std::optional<Workload> GemmWorkload(const graph::Graph& g, const graph::Node& node) {
  const std::vector<int64_t>& a = g.value(node.inputs[0]).type.shape;
  const std::vector<int64_t>& b = g.value(node.inputs[1]).type.shape;
  absl::StatusOr<int64_t> trans_a = node.attrs.Int("trans_a", 0);
  absl::StatusOr<int64_t> trans_b = node.attrs.Int("trans_b", 0);
  const int64_t b_block = node.attrs.Int("b_block", 0).value_or(0);
  if (node.op == graph::OpKind::kGemm && b_block > 0 && a.size() == 2 && b.size() == 3 &&
      trans_a.ok() && *trans_a == 0) {
    // The weight packed at build time, [N/block][K][block]: tuned in that layout.
    return Workload{"dense_packed", {a[0], b[0] * b[2], a[1], b[2]}};
  }
  if (a.size() != 2 || b.size() != 2 || !trans_a.ok() || !trans_b.ok() || *trans_a != 0) {
    return std::nullopt;
  }
  if (*trans_b != 0) return Workload{"dense", {a[0], b[0], a[1]}};
  return Workload{"matmul", {a[0], b[1], a[1]}};
}

const graph::Node* Producer(const graph::Graph& g, graph::ValueId v) {
  const graph::Value& value = g.value(v);
  return value.kind == graph::ValueKind::kNodeOutput ? &g.nodes()[value.index] : nullptr;
}

// Whether a blocked conv reads its data in the block its producer chose, which a layout plan can
// change; a to_nchwc of an NCHW value (the model's input, a concat's output) has the rule's.
bool InputBlockIsAChoice(const graph::Graph& g, const graph::Node& node) {
  const graph::Node* producer = Producer(g, node.inputs[0]);
  return producer != nullptr && producer->op != graph::OpKind::kToNchwc;
}

// `built` (a blocked conv's workload) at every block pair a layout plan could give `node`, `built`
// itself first.
std::vector<Workload> BlockVariants(const graph::Graph& g, const graph::Node& node,
                                    const Workload& built, const topi::CpuInfo& cpu) {
  std::vector<Workload> out = {built};
  auto add = [&](std::vector<int64_t> args) {
    Workload w{built.template_name, std::move(args)};
    if (std::find(out.begin(), out.end(), w) == out.end()) out.push_back(std::move(w));
  };
  // An int8 conv's blocks are the dot product's: no plan changes them.
  if (built.template_name == "conv2d_int8") return out;
  const std::vector<int64_t>& a = built.args;
  const bool input_is_choice = InputBlockIsAChoice(g, node);
  if (built.template_name == "depthwise_conv2d_nchwc") {
    // N,C,H,W,KH,KW,stride,pad,block: its block is its input's.
    if (!input_is_choice || a.size() != 9) return out;
    for (int64_t b : graph::ConvOcBlockCandidates(a[1], cpu)) {
      if (b % cpu.Lanes(4) != 0) continue;  // the depthwise template blocks whole vectors
      std::vector<int64_t> args = a;
      args[8] = b;
      add(std::move(args));
    }
    return out;
  }
  // N,C,H,W,O,KH,KW,stride,pad,ic_block,oc_block.
  if (a.size() != 11) return out;
  const std::vector<int64_t> input_blocks =
      input_is_choice ? graph::ConvOcBlockCandidates(a[1], cpu) : std::vector<int64_t>{a[9]};
  for (int64_t ic : input_blocks) {
    for (int64_t oc : graph::ConvOcBlockCandidates(a[4], cpu)) {
      std::vector<int64_t> args = a;
      args[9] = ic;
      args[10] = oc;
      add(std::move(args));
    }
  }
  return out;
}

// The real channel count of a blocked value: its conv's, or its to_nchwc's input's, through the
// ops that keep the blocks (elementwise, pooling, adds). 0 when no such producer is found.
int64_t BlockedChannels(const graph::Graph& g, graph::ValueId v) {
  for (int depth = 0; depth < 64; ++depth) {
    const graph::Node* p = Producer(g, v);
    if (p == nullptr || p->inputs.empty()) return 0;
    switch (p->op) {
      case graph::OpKind::kConv2dNchwc:
      case graph::OpKind::kGroupConv2dNchwc:
      case graph::OpKind::kConv2dWinogradNchwc:
      case graph::OpKind::kDepthwiseConv2dNchwc:
        return p->attrs.Int("channels", 0).value_or(0);
      case graph::OpKind::kToNchwc: {
        const std::vector<int64_t>& shape = g.value(p->inputs[0]).type.shape;
        return shape.size() == 4 ? shape[1] : 0;
      }
      default:
        v = p->inputs[0];
    }
  }
  return 0;
}

// The layout transforms a plan could add at `node` (an add of two blocked values): between every
// two candidate blocks of its channels.
std::vector<Workload> TransformVariants(const graph::Graph& g, const graph::Node& node,
                                        const topi::CpuInfo& cpu) {
  if (node.op != graph::OpKind::kAdd || node.inputs.size() != 2 || node.outputs.size() != 1) {
    return {};
  }
  const std::vector<int64_t>& y = g.value(node.outputs[0]).type.shape;
  if (y.size() != 5 || g.value(node.inputs[0]).type.shape != y ||
      g.value(node.inputs[1]).type.shape != y) {
    return {};
  }
  const int64_t channels = BlockedChannels(g, node.inputs[0]);
  if (channels <= 0) return {};
  const std::vector<int64_t> blocks = graph::ConvOcBlockCandidates(channels, cpu);
  std::vector<Workload> out;
  for (int64_t from : blocks) {
    for (int64_t to : blocks) {
      if (from != to) out.push_back({"layout_transform", {y[0], channels, y[2], y[3], from, to}});
    }
  }
  return out;
}

// Where a blocked value's block comes from: the conv2d node whose output block decides it, or
// (node -1) a fixed block, a to_nchwc's.
struct BlockSource {
  int node = -1;
  int64_t fixed = 0;
};
BlockSource SourceOf(const graph::Graph& g, graph::ValueId v) {
  for (int depth = 0; depth < 256; ++depth) {
    const graph::Value& value = g.value(v);
    if (value.kind != graph::ValueKind::kNodeOutput) break;
    const graph::Node& p = g.nodes()[value.index];
    if (p.op == graph::OpKind::kConv2dNchwc || p.op == graph::OpKind::kConv2dWinogradNchwc) {
      return {static_cast<int>(value.index), 0};
    }
    if (p.op == graph::OpKind::kToNchwc || p.inputs.empty()) break;
    v = p.inputs[0];
  }
  const std::vector<int64_t>& shape = g.value(v).type.shape;
  return {-1, shape.size() == 5 ? shape[4] : 0};
}

// Builds a LayoutChoice from the graph's blocked convs and adds.
class LayoutChoiceBuilder {
 public:
  LayoutChoiceBuilder(const graph::Graph& g, const std::vector<ModelTask>& tasks,
                      const topi::CpuInfo& cpu)
      : g_(g), cpu_(cpu) {
    for (size_t i = 0; i < tasks.size(); ++i) task_of_[tasks[i].workload.Key()] = i;
  }

  // A blocked conv group's kernels at each block pair and algorithm.
  void AddConvSite(const graph::Node& anchor, int anchor_index) {
    const std::optional<Workload> built = NodeWorkload(g_, anchor);
    if (!built) return;
    const BlockSource input = SourceOf(g_, anchor.inputs[0]);
    const int site = NewSite(true);
    if (built->template_name == "depthwise_conv2d_nchwc") {
      for (const Workload& w : BlockVariants(g_, anchor, *built, cpu_)) {
        std::vector<BlockCondition> when;
        if (InputCondition(input, w.args[8], when)) AddUse(w, site, std::move(when));
      }
      return;
    }
    const int own = VarOf(anchor_index);
    if (own < 0) return;
    const Workload direct{"conv2d_nchwc", built->args};
    for (const Workload& variant : BlockVariants(g_, anchor, direct, cpu_)) {
      std::vector<BlockCondition> when;
      if (!InputCondition(input, variant.args[9], when)) continue;
      if (!Holds(own, variant.args[10])) continue;
      when.push_back({own, variant.args[10]});
      for (const char* name : {"conv2d_nchwc", "conv2d_winograd_nchwc"}) {
        AddUse({name, variant.args}, site, when);
      }
    }
  }

  // The transforms an add of two blocked values runs where its sides' blocks differ: its second
  // side moved into the first's block.
  void AddTransformSite(const graph::Node& add) {
    const std::vector<Workload> transforms = TransformVariants(g_, add, cpu_);
    if (transforms.empty()) return;
    const BlockSource kept = SourceOf(g_, add.inputs[0]);
    const BlockSource moved = SourceOf(g_, add.inputs[1]);
    if (kept.node < 0 && moved.node < 0) return;
    const int site = NewSite(false);
    for (const Workload& w : transforms) {  // N,C,H,W,from,to
      std::vector<BlockCondition> when;
      if (InputCondition(moved, w.args[4], when) && InputCondition(kept, w.args[5], when)) {
        AddUse(w, site, std::move(when));
      }
    }
  }

  LayoutChoice Take() {
    // Without a use there is nothing to choose: tasks of the rule's blocks only.
    if (choice_.uses.empty()) return {};
    return std::move(choice_);
  }

 private:
  int NewSite(bool required) {
    choice_.site_required.push_back(required);
    return static_cast<int>(choice_.site_required.size()) - 1;
  }

  // The var of a conv2d node (its output block), made on first sight; -1 when the node has no
  // blocked workload.
  int VarOf(int node_index) {
    auto it = var_of_.find(node_index);
    if (it != var_of_.end()) return it->second;
    const std::optional<Workload> w = NodeWorkload(g_, g_.nodes()[node_index]);
    int var = -1;
    if (w && w->args.size() == 11) {
      LayoutVar v{w->args[10], graph::ConvOcBlockCandidates(w->args[4], cpu_), w->args[4]};
      if (std::find(v.candidates.begin(), v.candidates.end(), v.rule) == v.candidates.end()) {
        v.candidates.push_back(v.rule);
      }
      var = static_cast<int>(choice_.vars.size());
      choice_.vars.push_back(std::move(v));
    }
    var_of_.emplace(node_index, var);
    return var;
  }

  bool Holds(int var, int64_t block) const {
    const std::vector<int64_t>& c = choice_.vars[var].candidates;
    return std::find(c.begin(), c.end(), block) != c.end();
  }

  // Adds the condition that the value from `source` is in `block`; false when it never is (a
  // fixed block of another size, a block its var cannot have).
  bool InputCondition(const BlockSource& source, int64_t block, std::vector<BlockCondition>& when) {
    if (source.node < 0) return block == source.fixed;
    const int var = VarOf(source.node);
    if (var < 0 || !Holds(var, block)) return false;
    when.push_back({var, block});
    return true;
  }

  void AddUse(const Workload& w, int site, std::vector<BlockCondition> when) {
    auto it = task_of_.find(w.Key());
    if (it == task_of_.end()) return;
    choice_.uses.push_back({static_cast<int>(it->second), site, std::move(when)});
  }

  const graph::Graph& g_;
  const topi::CpuInfo& cpu_;
  std::map<std::string, size_t> task_of_;
  std::map<int, int> var_of_;
  LayoutChoice choice_;
};

}  // namespace

std::optional<Workload> AnchorWorkload(const graph::Graph& graph, const graph::FusedGroup& group) {
  if (group.anchor < 0) return std::nullopt;
  return NodeWorkload(graph, graph.nodes()[group.anchor]);
}

std::optional<Workload> NodeWorkload(const graph::Graph& graph, const graph::Node& node) {
  if (node.op == graph::OpKind::kConv2dInt8Nchwc) return Int8ConvWorkload(graph, node);
  if (node.op == graph::OpKind::kDenseInt8 && node.inputs.size() == 5) {
    // x [M, K], w_sum [N]: the weight is packed for the CPU's lanes, as the template's.
    const std::vector<int64_t>& x = graph.value(node.inputs[0]).type.shape;
    const std::vector<int64_t>& sum = graph.value(node.inputs[2]).type.shape;
    if (x.size() != 2 || sum.size() != 1) return std::nullopt;
    return Workload{"dense_int8", {x[0], sum[0], x[1]}, "int8"};
  }
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
  // Winograd pays only with many channels (WinogradTileFor's 32), and its template blocks
  // output channels in whole vectors: a conv of fewer than 16 filters has no Winograd rival.
  if (algorithms == TaskAlgorithms::kBuilt || !graph::WinogradPadding(graph, node) ||
      (built->args.size() == 11 && built->args[4] < 16)) {
    return {*built};
  }
  return {Workload{"conv2d_nchwc", built->args}, Workload{"conv2d_winograd_nchwc", built->args}};
}

std::vector<ModelTask> ExtractModelTasks(const graph::Graph& graph, const graph::FusionPlan& plan,
                                         TaskAlgorithms algorithms,
                                         const std::optional<topi::CpuInfo>& layouts) {
  std::vector<ModelTask> tasks;
  std::map<std::string, int> layers;  // the key of a layer class's first workload -> its number
  for (size_t i = 0; i < plan.groups.size(); ++i) {
    std::vector<Workload> workloads = AnchorWorkloads(graph, plan.groups[i], algorithms);
    if (workloads.empty()) continue;
    if (layouts) {
      std::vector<Workload> all;
      for (const Workload& w : workloads) {
        for (Workload& v :
             BlockVariants(graph, graph.nodes()[plan.groups[i].anchor], w, *layouts)) {
          all.push_back(std::move(v));
        }
      }
      workloads = std::move(all);
    }
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
  if (!layouts) return tasks;
  for (const graph::Node& node : graph.nodes()) {
    for (Workload& w : TransformVariants(graph, node, *layouts)) {
      auto same = std::find_if(tasks.begin(), tasks.end(),
                               [&](const ModelTask& t) { return t.workload == w; });
      if (same != tasks.end()) continue;
      const int layer = static_cast<int>(layers.size());
      layers.emplace(w.Key(), layer);
      tasks.push_back({std::move(w), {}, layer});
    }
  }
  return tasks;
}

LayoutChoice ExtractLayoutChoice(const graph::Graph& graph, const graph::FusionPlan& plan,
                                 const std::vector<ModelTask>& tasks, const topi::CpuInfo& cpu) {
  LayoutChoiceBuilder builder(graph, tasks, cpu);
  for (const graph::FusedGroup& group : plan.groups) {
    if (group.anchor < 0) continue;
    const graph::Node& anchor = graph.nodes()[group.anchor];
    if (anchor.op == graph::OpKind::kConv2dNchwc ||
        anchor.op == graph::OpKind::kConv2dWinogradNchwc ||
        anchor.op == graph::OpKind::kDepthwiseConv2dNchwc) {
      builder.AddConvSite(anchor, group.anchor);
    }
  }
  for (const graph::Node& node : graph.nodes()) builder.AddTransformSite(node);
  return builder.Take();
}

}  // namespace tunefarm::tuner
