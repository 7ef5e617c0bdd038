#include "compiler/graph/group_kernel.h"

#include <algorithm>
#include <map>
#include <set>

#include "absl/strings/str_cat.h"
#include "compiler/graph/op_compute.h"
#include "compiler/graph/op_registry.h"
#include "compiler/passes/lower.h"
#include "compiler/topi/activation.h"
#include "compiler/topi/conv2d.h"
#include "compiler/topi/conv2d_nchwc.h"
#include "compiler/topi/conv2d_winograd.h"
#include "compiler/topi/default_schedule.h"
#include "compiler/topi/dense_int8.h"
#include "compiler/topi/depthwise_conv2d.h"
#include "compiler/topi/depthwise_conv2d_nchwc.h"
#include "compiler/topi/gemm_schedule.h"
#include "compiler/topi/gpu_conv2d.h"
#include "compiler/topi/gpu_default_schedule.h"
#include "compiler/topi/gpu_depthwise_conv2d.h"
#include "compiler/topi/pool.h"
#include "compiler/topi/static_shape.h"

namespace tunefarm::graph {
namespace {

// The group's computation in TE: placeholders for what it reads, the tensors of every node (kept
// alive: a stage lives only while a tensor of it does) and the tensors it writes.
struct GroupTensors {
  std::vector<te::Tensor> placeholders;
  std::vector<te::Tensor> outputs;
  std::vector<OpTensors> nodes;
  AnchorTensors anchor;
  WinogradStages winograd;  // the anchor's, when it is a Winograd convolution
};

bool ReadOutsideGroup(const Graph& graph, ValueId value, const std::vector<char>& in_group) {
  for (const GraphOutput& out : graph.outputs()) {
    if (out.value == value) return true;
  }
  const std::vector<Node>& nodes = graph.nodes();
  for (size_t n = 0; n < nodes.size(); ++n) {
    if (in_group[n]) continue;
    for (ValueId in : nodes[n].inputs) {
      if (in == value) return true;
    }
  }
  return false;
}

// An opaque op alone in its group: fusion makes no anchor of it (nothing fuses into it), but
// where its compute names a template (softmax's rows), the template schedules it.
bool IsLoneOpaque(const Graph& graph, const FusedGroup& group) {
  return group.anchor < 0 && group.nodes.size() == 1 &&
         GetOpInfo(graph.nodes()[group.nodes[0]].op).pattern == PatternKind::kOpaque;
}

absl::StatusOr<GroupTensors> ComputeGroup(const Graph& graph, const FusedGroup& group,
                                          const ComputeOptions& options, GroupKernel& kernel) {
  std::vector<char> in_group(graph.nodes().size(), 0);
  for (int n : group.nodes) in_group[n] = 1;
  GroupTensors t;
  std::map<ValueId, te::Tensor> tensors;
  for (int n : group.nodes) {
    const Node& node = graph.nodes()[n];
    std::vector<te::Tensor> inputs;
    for (ValueId in : node.inputs) {
      auto it = tensors.find(in);
      if (it == tensors.end()) {
        te::Tensor p = PlaceholderOf(graph.value(in).type, absl::StrCat("p", kernel.inputs.size()));
        it = tensors.emplace(in, p).first;
        kernel.inputs.push_back(in);
        t.placeholders.push_back(p);
      }
      inputs.push_back(it->second);
    }
    absl::StatusOr<OpTensors> computed = ComputeOp(node, inputs, options);
    if (!computed.ok()) return computed.status();
    if (n == group.anchor || IsLoneOpaque(graph, group)) {
      t.anchor = computed->anchor;
      t.winograd = computed->winograd;
    }
    for (size_t i = 0; i < node.outputs.size(); ++i) {
      tensors[node.outputs[i]] = computed->outputs[i];
    }
    t.nodes.push_back(*std::move(computed));
  }
  for (int n : group.nodes) {
    for (ValueId out : graph.nodes()[n].outputs) {
      if (!ReadOutsideGroup(graph, out, in_group)) continue;
      te::Tensor result = tensors[out];
      // A kernel writes its own buffers: an op that passes its input through (a reshape that
      // changes nothing) or a value written twice gets a copy.
      bool aliased = false;
      for (const te::Tensor& p : t.placeholders) aliased = aliased || p.same_as(result);
      for (const te::Tensor& o : t.outputs) aliased = aliased || o.same_as(result);
      if (aliased) {
        absl::StatusOr<te::Tensor> copy = topi::IdentityCompute(result);
        if (!copy.ok()) return copy.status();
        result = *copy;
      }
      kernel.outputs.push_back(out);
      t.outputs.push_back(result);
    }
  }
  return t;
}

int64_t GemmExtent(const te::Tensor& t, size_t d) {
  const auto* imm = t.shape()[d].As<ir::IntImmNode>();
  return imm != nullptr ? imm->value : -1;
}

// Whether every node but the anchor is an elementwise or broadcast op that does not feed it: an
// epilogue (a node before the anchor may compute a side operand of it, as a QDQ model's
// dequantize of a residual input does).
bool IsAnchorWithEpilogue(const Graph& graph, const FusedGroup& group) {
  if (IsLoneOpaque(graph, group)) return true;
  if (group.anchor < 0) return false;
  // The group's nodes that the anchor reads, directly or through others of the group.
  std::set<int> feeds;
  std::vector<int> pending = {group.anchor};
  while (!pending.empty()) {
    const int n = pending.back();
    pending.pop_back();
    for (ValueId in : graph.nodes()[n].inputs) {
      const Value& v = graph.value(in);
      if (v.kind != ValueKind::kNodeOutput) continue;
      const int producer = static_cast<int>(v.index);
      if (std::find(group.nodes.begin(), group.nodes.end(), producer) != group.nodes.end() &&
          feeds.insert(producer).second) {
        pending.push_back(producer);
      }
    }
  }
  for (int n : group.nodes) {
    if (n == group.anchor) continue;
    if (feeds.count(n) || GetOpInfo(graph.nodes()[n].op).pattern > PatternKind::kBroadcast) {
      return false;
    }
  }
  return true;
}

// The anchor's template over `output` (the group's one output: the anchor's own or its epilogue),
// with its default config; FailedPrecondition when the template does not apply.
absl::StatusOr<topi::ScheduledOp> ScheduleByTemplate(
    const AnchorTensors& a, const WinogradStages& winograd, const te::Tensor& output,
    const topi::CpuInfo& cpu, const AnchorConfig& given, std::string* description) {
  const auto* conv_config = std::get_if<topi::Conv2dScheduleConfig>(&given);
  const auto* window_config = std::get_if<topi::WindowScheduleConfig>(&given);
  const char* source = conv_config != nullptr || window_config != nullptr ? "tuned" : "default";
  const te::Tensor epilogue = output.same_as(a.out) ? te::Tensor() : output;
  // For templates whose output is the reduction itself: the bias is part of the epilogue.
  const te::Tensor epilogue_of_reduced = output.same_as(a.reduced) ? te::Tensor() : output;
  switch (a.kind) {
    case AnchorTemplate::kConv2d: {
      topi::Conv2dTensors t{a.data, a.weight, a.padded, a.reduced, a.out};
      topi::Conv2dScheduleConfig config =
          conv_config != nullptr ? *conv_config : topi::DefaultConv2dConfig(t, cpu);
      *description = absl::StrCat("conv2d template, ", source, " (", config.ToString(), ")");
      return topi::ScheduleConv2d(config, t, epilogue_of_reduced);
    }
    case AnchorTemplate::kDepthwiseConv2d: {
      topi::DepthwiseConv2dTensors t{a.data, a.weight, a.padded, a.reduced, a.out};
      topi::DepthwiseConv2dScheduleConfig config =
          window_config != nullptr ? *window_config : topi::DefaultDepthwiseConv2dConfig(t, cpu);
      *description =
          absl::StrCat("depthwise_conv2d template, ", source, " (", config.ToString(), ")");
      return topi::ScheduleDepthwiseConv2d(config, t, epilogue_of_reduced);
    }
    case AnchorTemplate::kPool2d: {
      topi::Pool2dTensors t{a.data, a.padded, a.reduced, a.out};
      topi::Pool2dScheduleConfig config =
          window_config != nullptr ? *window_config : topi::DefaultPool2dConfig(t, cpu);
      *description = absl::StrCat("pool2d template, ", source, " (", config.ToString(), ")");
      return topi::SchedulePool2d(config, t, epilogue);
    }
    case AnchorTemplate::kPool2dNchwc: {
      absl::StatusOr<std::vector<int64_t>> d = topi::StaticShape("pool2d_nchwc", a.data, 5);
      absl::StatusOr<std::vector<int64_t>> o = topi::StaticShape("pool2d_nchwc", a.reduced, 5);
      if (!d.ok()) return d.status();
      if (!o.ok()) return o.status();
      const topi::BlockedWindowScheduleConfig config =
          topi::DefaultBlockedWindowConfig((*o)[3], cpu, (*d)[4]);
      *description = absl::StrCat("pool2d_nchwc template, default (", config.ToString(), ")");
      return topi::SchedulePool2dNchwc(config, {a.data, a.padded, a.reduced, a.out}, epilogue);
    }
    case AnchorTemplate::kConv2dNchwc: {
      absl::StatusOr<std::vector<int64_t>> d = topi::StaticShape("conv2d_nchwc", a.data, 5);
      absl::StatusOr<std::vector<int64_t>> w = topi::StaticShape("conv2d_nchwc", a.weight, 6);
      if (!d.ok()) return d.status();
      if (!w.ok()) return w.status();
      const int64_t ic = (*d)[4], oc = (*w)[5];
      topi::Conv2dNchwcTensors t{a.data, a.weight, a.padded, a.reduced, ic, oc};
      const auto* tuned = std::get_if<topi::Conv2dNchwcScheduleConfig>(&given);
      topi::Conv2dNchwcScheduleConfig config;
      if (tuned != nullptr && tuned->ic_block == ic && tuned->oc_block == oc) {
        config = *tuned;
      } else {
        // The default for the layout's NCHW view, with the blocks the layout rewrite chose.
        config = topi::DefaultConv2dNchwcConfig({(*d)[0], (*d)[1] * ic, (*d)[2], (*d)[3]},
                                                {(*w)[0] * oc, (*w)[1] * ic, (*w)[2], (*w)[3]},
                                                a.window, cpu, topi::NchwcBlocks{ic, oc});
        tuned = nullptr;
      }
      *description = absl::StrCat("conv2d_nchwc template, ", tuned ? "tuned" : "default", " (",
                                  config.ToString(), ")");
      return topi::ScheduleConv2dNchwc(config, t, epilogue_of_reduced);
    }
    case AnchorTemplate::kDepthwiseConv2dNchwc: {
      absl::StatusOr<std::vector<int64_t>> d =
          topi::StaticShape("depthwise_conv2d_nchwc", a.data, 5);
      absl::StatusOr<std::vector<int64_t>> w =
          topi::StaticShape("depthwise_conv2d_nchwc", a.weight, 4);
      if (!d.ok()) return d.status();
      if (!w.ok()) return w.status();
      const int64_t c = (*d)[4];
      topi::DepthwiseConv2dNchwcTensors t{a.data, a.weight, a.padded, a.reduced, c};
      const auto* tuned = std::get_if<topi::DepthwiseConv2dNchwcScheduleConfig>(&given);
      topi::DepthwiseConv2dNchwcScheduleConfig config;
      if (tuned != nullptr && tuned->channel_block == c) {
        config = *tuned;
      } else {
        config = topi::DefaultDepthwiseConv2dNchwcConfig({(*d)[0], (*d)[1] * c, (*d)[2], (*d)[3]},
                                                         (*w)[1], (*w)[2], a.window, cpu, c);
        tuned = nullptr;
      }
      *description = absl::StrCat("depthwise_conv2d_nchwc template, ", tuned ? "tuned" : "default",
                                  " (", config.ToString(), ")");
      return topi::ScheduleDepthwiseConv2dNchwc(config, t, epilogue_of_reduced);
    }
    case AnchorTemplate::kConv2dWinogradNchwc: {
      const auto* tuned = std::get_if<topi::Conv2dWinogradScheduleConfig>(&given);
      if (tuned != nullptr && tuned->tile != winograd.tile) tuned = nullptr;
      const topi::Conv2dWinogradScheduleConfig config =
          tuned != nullptr ? *tuned : topi::DefaultConv2dWinogradConfig(winograd.tile, cpu);
      topi::Conv2dWinogradTensors t{a.data,           a.weight,  winograd.rows, winograd.tiles,
                                    winograd.product, a.reduced, winograd.tile, 0};
      *description =
          absl::StrCat("conv2d_winograd_nchwc template F(", winograd.tile, "x", winograd.tile,
                       ", 3x3), ", tuned ? "tuned" : "default", " (", config.ToString(), ")");
      return topi::ScheduleConv2dWinograd(config, t, epilogue_of_reduced);
    }
    case AnchorTemplate::kGemm: {
      const topi::GemmTensors& g = a.gemm;
      const size_t rank = g.c.shape().size();
      if (rank != (g.batched ? 3u : 2u)) {
        return absl::FailedPreconditionError("not a 2-D gemm or a 3-D batch of them");
      }
      const std::vector<int64_t> shape = {GemmExtent(g.c, rank - 2), GemmExtent(g.c, rank - 1)};
      const int64_t batch = g.batched ? GemmExtent(g.c, 0) : 1, k = GemmExtent(g.a, rank - 1);
      // A batch's second operand is B[b][k][n] as the model gives it (activations, unpacked).
      topi::GemmScheduleConfig config = topi::DefaultGemmConfig(
          batch, shape[0], shape[1], k, cpu,
          g.layout.b_block > 0 || g.batched ? topi::WeightLayout::kKN : topi::WeightLayout::kNK);
      // The compute's layout decides the packing: a weight packed at build time fixes the
      // register tile's columns (and a record applies only with those); an unpacked one is read
      // as it is.
      config.pack_input = false;
      config.pack_weight_at_block = false;
      const auto* tuned = std::get_if<topi::GemmScheduleConfig>(&given);
      if (g.layout.b_block > 0) {
        if (g.layout.b_block % config.vector_lanes != 0) {
          return absl::FailedPreconditionError("weight block is not whole vectors");
        }
        config = topi::DefaultPackedGemmConfig(shape[0], shape[1], k, cpu, g.layout.b_block);
        if (tuned != nullptr && !g.batched && tuned->pack_weight && !tuned->pack_input &&
            !tuned->pack_weight_at_block && tuned->reg_n() == g.layout.b_block) {
          config = *tuned;
        } else {
          tuned = nullptr;
        }
      } else {
        config.pack_weight = false;
        tuned = nullptr;
      }
      *description = absl::StrCat("gemm template, ", tuned != nullptr ? "tuned" : "default", " (",
                                  config.ToString(), ")");
      const te::Tensor gemm_epilogue = output.same_as(g.c) ? te::Tensor() : output;
      return topi::ScheduleGemm(config, g, gemm_epilogue);
    }
    case AnchorTemplate::kDenseInt8: {
      const topi::DenseInt8Tensors& d = a.dense_int8;
      const int64_t m = GemmExtent(d.c, 0), n = GemmExtent(d.c, 1), k = GemmExtent(d.a, 1);
      topi::DenseInt8Config config = topi::DefaultDenseInt8Config(m, n, k, cpu);
      // The weight was packed at build time for its lanes; the register tile follows them.
      config.lanes = d.lanes;
      config.reg_n_vectors = std::min<int64_t>(2, (n + d.lanes - 1) / d.lanes);
      const auto* tuned = std::get_if<topi::DenseInt8Config>(&given);
      if (tuned != nullptr && tuned->lanes == d.lanes) config = *tuned;
      *description = absl::StrCat("dense_int8 template, ",
                                  tuned != nullptr && tuned->lanes == d.lanes ? "tuned" : "default",
                                  " (", config.ToString(), ")");
      return topi::ScheduleDenseInt8(config, d, output.same_as(d.c) ? te::Tensor() : output);
    }
    case AnchorTemplate::kConv2dInt8: {
      const auto* tuned = std::get_if<topi::Conv2dInt8Config>(&given);
      const topi::Conv2dInt8Config config =
          tuned != nullptr ? *tuned : topi::DefaultConv2dInt8Config(a.conv2d_int8, cpu);
      *description = absl::StrCat("conv2d_int8 template, ", tuned ? "tuned" : "default", " (",
                                  config.ToString(), ")");
      return topi::ScheduleConv2dInt8(config, a.conv2d_int8,
                                      output.same_as(a.conv2d_int8.out) ? te::Tensor() : output);
    }
    case AnchorTemplate::kSoftmax: {
      if (!output.same_as(a.softmax.out)) {
        return absl::FailedPreconditionError("the softmax template takes no epilogue");
      }
      const topi::SoftmaxScheduleConfig config = topi::DefaultSoftmaxConfig(a.softmax, cpu);
      *description = absl::StrCat("softmax template, default (", config.ToString(), ")");
      return topi::ScheduleSoftmax(config, a.softmax);
    }
    case AnchorTemplate::kNone:
      break;
  }
  return absl::FailedPreconditionError("no template");
}

// The anchor's GPU template over `output`, with its default config; FailedPrecondition when no
// GPU template applies (pooling runs one thread per output under the default schedule).
absl::StatusOr<topi::ScheduledOp> ScheduleByGpuTemplate(const AnchorTensors& a,
                                                        const te::Tensor& output,
                                                        const AnchorConfig& tuned,
                                                        std::string* description) {
  // The epilogue starts after the template's own output (a conv's bias is part of it).
  const te::Tensor epilogue = output.same_as(a.reduced) ? te::Tensor() : output;
  switch (a.kind) {
    case AnchorTemplate::kConv2d: {
      topi::Conv2dTensors t{a.data, a.weight, a.padded, a.reduced, a.out};
      const auto* record = std::get_if<topi::GpuConv2dScheduleConfig>(&tuned);
      const topi::GpuConv2dScheduleConfig config =
          record != nullptr ? *record : topi::DefaultGpuConv2dConfig(t);
      *description = absl::StrCat("gpu conv2d template, ", record != nullptr ? "tuned" : "default",
                                  " (", config.ToString(), ")");
      return topi::ScheduleGpuConv2d(config, t, a.window, epilogue);
    }
    case AnchorTemplate::kDepthwiseConv2d: {
      topi::DepthwiseConv2dTensors t{a.data, a.weight, a.padded, a.reduced, a.out};
      const auto* record = std::get_if<topi::GpuDepthwiseConv2dScheduleConfig>(&tuned);
      const topi::GpuDepthwiseConv2dScheduleConfig config =
          record != nullptr ? *record : topi::DefaultGpuDepthwiseConv2dConfig(t);
      *description =
          absl::StrCat("gpu depthwise_conv2d template, ", record != nullptr ? "tuned" : "default",
                       " (", config.ToString(), ")");
      return topi::ScheduleGpuDepthwiseConv2d(config, t, a.window, epilogue);
    }
    case AnchorTemplate::kPool2d:
    case AnchorTemplate::kPool2dNchwc:
    case AnchorTemplate::kConv2dNchwc:
    case AnchorTemplate::kDepthwiseConv2dNchwc:
    case AnchorTemplate::kConv2dWinogradNchwc:
    case AnchorTemplate::kGemm:
    case AnchorTemplate::kDenseInt8:
    case AnchorTemplate::kConv2dInt8:
    case AnchorTemplate::kSoftmax:
    case AnchorTemplate::kNone:
      break;
  }
  return absl::FailedPreconditionError("no template");
}

// The group's schedule: the anchor's template for `target` when the group is an anchor with an
// epilogue, else the device's default schedule.
absl::StatusOr<topi::ScheduledOp> ScheduleGroup(const Graph& graph, const FusedGroup& group,
                                                const GroupTensors& t, const KernelTarget& target,
                                                const AnchorConfig& config,
                                                std::string* description) {
  if (t.anchor.kind != AnchorTemplate::kNone && t.outputs.size() == 1 &&
      IsAnchorWithEpilogue(graph, group)) {
    absl::StatusOr<topi::ScheduledOp> op =
        target.is_gpu() ? ScheduleByGpuTemplate(t.anchor, t.outputs[0], config, description)
                        : ScheduleByTemplate(t.anchor, t.winograd, t.outputs[0], target.cpu, config,
                                             description);
    // An epilogue that does not keep the anchor's shape (a broadcast that widens it) is left
    // to the default schedule; any other failure is a bug worth reporting.
    if (op.ok() || op.status().code() != absl::StatusCode::kFailedPrecondition) return op;
  }
  *description = "default";
  if (target.is_gpu()) return topi::ScheduleGpuDefault(t.placeholders, t.outputs);
  return topi::ScheduleDefault(t.placeholders, t.outputs, target.cpu);
}

absl::StatusOr<ir::PrimFunc> LowerFor(const KernelTarget& target, const topi::ScheduledOp& op,
                                      const std::vector<te::Tensor>& args,
                                      const std::string& name) {
  passes::PassOptions options;
  options.target = target.lowering_target();
  return passes::Lower(op.schedule, args, name, options);
}

}  // namespace

std::string GroupKernelName(const Graph& graph, const FusedGroup& group, int index) {
  std::string name = absl::StrCat("fused_", index);
  for (size_t i = 0; i < group.nodes.size() && i < 5; ++i) {
    absl::StrAppend(&name, "_", std::string(GetOpInfo(graph.nodes()[group.nodes[i]].op).name));
  }
  return name;
}

absl::StatusOr<GroupKernel> LowerCopy(const TensorType& type, const std::string& name,
                                      const KernelTarget& target) {
  te::Tensor in = PlaceholderOf(type, "p0");
  absl::StatusOr<te::Tensor> out = topi::IdentityCompute(in);
  if (!out.ok()) return out.status();
  absl::StatusOr<topi::ScheduledOp> op = target.is_gpu()
                                             ? topi::ScheduleGpuDefault({in}, {*out})
                                             : topi::ScheduleDefault({in}, {*out}, target.cpu);
  if (!op.ok()) return op.status();
  absl::StatusOr<ir::PrimFunc> func = LowerFor(target, *op, op->args, name);
  if (!func.ok()) return func.status();
  GroupKernel kernel;
  kernel.func = *std::move(func);
  kernel.schedule = "copy";
  return kernel;
}

absl::StatusOr<GroupKernel> LowerGroup(const Graph& graph, const FusedGroup& group,
                                       const std::string& name, const KernelTarget& target,
                                       const AnchorConfig& config) {
  GroupKernel kernel;
  ComputeOptions compute_options;
  compute_options.whole_vector_rows = !target.is_gpu();
  absl::StatusOr<GroupTensors> t = ComputeGroup(graph, group, compute_options, kernel);
  if (!t.ok()) return t.status();
  if (t->outputs.empty()) {
    return absl::InternalError(absl::StrCat("kernel ", name, ": the group writes nothing"));
  }
  absl::StatusOr<topi::ScheduledOp> op =
      ScheduleGroup(graph, group, *t, target, config, &kernel.schedule);
  if (!op.ok()) {
    const absl::StatusCode code = op.status().code() == absl::StatusCode::kUnimplemented
                                      ? absl::StatusCode::kUnimplemented
                                      : absl::StatusCode::kInternal;
    return absl::Status(code, absl::StrCat("kernel ", name, ": ", op.status().message()));
  }
  std::vector<te::Tensor> args = t->placeholders;
  args.insert(args.end(), t->outputs.begin(), t->outputs.end());
  absl::StatusOr<ir::PrimFunc> func = LowerFor(target, *op, args, name);
  if (!func.ok()) {
    return absl::InternalError(
        absl::StrCat("kernel ", name, ": lowering: ", func.status().message()));
  }
  kernel.func = *std::move(func);
  return kernel;
}

}  // namespace tunefarm::graph
