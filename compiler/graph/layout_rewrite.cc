#include "compiler/graph/layout_rewrite.h"

#include <algorithm>
#include <iterator>
#include <map>
#include <set>
#include <string_view>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "compiler/graph/graph_rebuilder.h"
#include "compiler/graph/op_registry.h"
#include "compiler/topi/conv2d_nchwc.h"
#include "compiler/topi/depthwise_conv2d_nchwc.h"
#include "compiler/topi/window.h"

namespace tunefarm::graph {
namespace {

int64_t CeilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

// The name of a node made for `base` (a node or value name): unnamed when `base` is, since node
// names must be unique.
std::string Named(const std::string& base, const std::string& suffix) {
  return base.empty() ? base : base + suffix;
}

bool IsUnaryElementwise(OpKind op) { return GetOpInfo(op).pattern == PatternKind::kElementwise; }

// An op that can make a non-finite value of a finite one (a division by zero, a log of zero, a
// square root of a negative). The channels that pad a block are zeros that no weight reads, but
// a NaN or an infinity there would survive a conv's zero weight (NaN * 0 is NaN); such ops run
// blocked only where no channel pads the block.
bool MayLeaveFinite(const Node& node) {
  if (node.op == OpKind::kDiv || node.op == OpKind::kPow || node.op == OpKind::kMod) return true;
  if (node.op != OpKind::kUnary) return false;
  static constexpr std::string_view kFinite[] = {
      "abs",      "neg",      "sign",      "floor",  "ceil", "round",      "erf",
      "softplus", "softsign", "elu",       "selu",   "celu", "leaky_relu", "thresholded_relu",
      "mish",     "gelu",     "gelu_tanh", "shrink", "sin",  "cos",        "sinh",
      "cosh",     "atan",     "asinh"};
  const std::string fn = node.attrs.String("fn", "").value_or("");
  return std::find(std::begin(kFinite), std::end(kFinite), fn) == std::end(kFinite);
}

bool IsBinaryBroadcast(OpKind op) {
  return op == OpKind::kAdd || op == OpKind::kSub || op == OpKind::kMul || op == OpKind::kDiv;
}

// A quantize or dequantize with one scale and one zero point.
bool IsPerTensorQuantization(const Graph& graph, const Node& node) {
  if ((node.op != OpKind::kQuantize && node.op != OpKind::kDequantize) || node.inputs.size() != 3 ||
      node.outputs.size() != 1) {
    return false;
  }
  for (ValueId parameter : {node.inputs[1], node.inputs[2]}) {
    for (int64_t d : graph.value(parameter).type.shape) {
      if (d != 1) return false;
    }
  }
  return true;
}

// A conv2d node's window as topi takes it (the attributes were checked by inference).
topi::Window2d WindowOf(const Node& node) {
  const std::vector<int64_t> strides =
      node.attrs.Ints("strides", {1, 1}).value_or(std::vector<int64_t>{1, 1});
  const std::vector<int64_t> pads =
      node.attrs.Ints("pads", {0, 0, 0, 0}).value_or(std::vector<int64_t>{0, 0, 0, 0});
  const std::vector<int64_t> dilations =
      node.attrs.Ints("dilations", {1, 1}).value_or(std::vector<int64_t>{1, 1});
  topi::Window2d w;
  w.stride_h = strides[0];
  w.stride_w = strides[1];
  w.pad_top = pads[0];
  w.pad_left = pads[1];
  w.pad_bottom = pads[2];
  w.pad_right = pads[3];
  w.dilation_h = dilations[0];
  w.dilation_w = dilations[1];
  return w;
}

// A conv (any groups) the rewrite blocks: float32, 4-D, constant weights and bias.
bool IsBlockableConv(const Graph& graph, const Node& node) {
  if (node.op != OpKind::kConv2d || node.inputs.size() < 2 || node.outputs.size() != 1) {
    return false;
  }
  const TensorType& x = graph.value(node.inputs[0]).type;
  const TensorType& w = graph.value(node.inputs[1]).type;
  const bool float32 = x.dtype.code == kDLFloat && x.dtype.bits == 32 && x.dtype.lanes == 1;
  const bool constant_weights =
      graph.ConstantData(node.inputs[1]) != nullptr &&
      (node.inputs.size() < 3 || graph.ConstantData(node.inputs[2]) != nullptr);
  return float32 && constant_weights && node.attrs.Int("groups", 1).ok() && x.shape.size() == 4 &&
         w.shape.size() == 4;
}

class LayoutRewriter {
 public:
  LayoutRewriter(const Graph& source, const topi::CpuInfo& cpu, const ConvBlockPlan& plan)
      : source_(source), rebuilt_(source), cpu_(cpu), plan_(plan) {}

  absl::Status Rewrite(size_t index, const Node& node) {
    if (node.op == OpKind::kConv2d) {
      absl::StatusOr<bool> done = RewriteConv(index, node);
      if (!done.ok() || *done) return done.status();
    } else if (IsUnaryElementwise(node.op) && node.inputs.size() == 1 && node.outputs.size() == 1 &&
               native_.count(node.inputs[0]) &&
               PaddingStaysFinite(node, native_.at(node.inputs[0]))) {
      const Blocked& in = native_.at(node.inputs[0]);
      return Follow(node, {in.value}, in);
    } else if (node.op == OpKind::kConv2dInt8) {
      return RewriteInt8Conv(node);
    } else if (IsPerTensorQuantization(source_, node) && native_.count(node.inputs[0])) {
      // One scale and zero point for every channel: the blocks as they are.
      const Blocked& in = native_.at(node.inputs[0]);
      return Follow(node, {in.value, rebuilt_.Map(node.inputs[1]), rebuilt_.Map(node.inputs[2])},
                    in);
    } else if ((node.op == OpKind::kMaxPool2d || node.op == OpKind::kAvgPool2d ||
                node.op == OpKind::kGlobalAvgPool2d || node.op == OpKind::kGlobalMaxPool2d) &&
               node.inputs.size() == 1 && native_.count(node.inputs[0])) {
      // A window over each channel: it pools the blocks as they are (no round trip to NCHW).
      const Blocked& in = native_.at(node.inputs[0]);
      return Follow(node, {in.value}, in);
    } else if (IsBinaryBroadcast(node.op) && node.inputs.size() == 2) {
      absl::StatusOr<bool> done = RewriteBinary(node);
      if (!done.ok() || *done) return done.status();
    }
    // Everything else reads NCHW.
    for (ValueId in : node.inputs) {
      if (absl::Status s = MakeNchw(in); !s.ok()) return s;
    }
    rebuilt_.Copy(node);
    return absl::OkStatus();
  }

  absl::StatusOr<Graph> Finish() {
    for (const auto& [index, block] : plan_) {
      if (planned_.count(index)) continue;
      const std::string label = index < source_.nodes().size()
                                    ? NodeLabel(index, source_.nodes()[index])
                                    : absl::StrCat("#", index);
      return absl::InvalidArgumentError(
          absl::StrCat("layout plan: node ", label,
                       " is not a conv the layout rewrite blocks (planned block ", block, ")"));
    }
    for (const GraphOutput& out : source_.outputs()) {
      if (absl::Status s = MakeNchw(out.value); !s.ok()) return s;
    }
    return rebuilt_.Finish();
  }

 private:
  // A value of the new graph in NCHW[block]c holding `channels` real channels.
  struct Blocked {
    ValueId value = -1;
    int64_t block = 0;
    int64_t channels = 0;
  };

  Graph& g() { return rebuilt_.graph(); }

  absl::StatusOr<ValueId> Add(OpKind op, const std::string& name, Attributes attrs,
                              std::vector<ValueId> inputs, const std::string& output_name = "") {
    absl::StatusOr<std::vector<ValueId>> out =
        g().AddOp(op, name, std::move(attrs), std::move(inputs), {output_name});
    if (!out.ok()) return out.status();
    return (*out)[0];
  }

  // The NCHW form of a source value made blocked: one from_nchwc, on first need.
  absl::Status MakeNchw(ValueId source_value) {
    auto it = native_.find(source_value);
    if (it == native_.end() || made_nchw_.count(source_value)) return absl::OkStatus();
    // The NCHW form is the source value itself, under its name.
    const std::string& name = source_.value(source_value).name;
    absl::StatusOr<ValueId> v =
        Add(OpKind::kFromNchwc, Named(name, ".from_nchwc"),
            Attributes{{"channels", it->second.channels}}, {it->second.value}, name);
    if (!v.ok()) return v.status();
    rebuilt_.Replace(source_value, *v);
    made_nchw_.insert(source_value);
    return absl::OkStatus();
  }

  // `source_value` (a 4-D NCHW value, or one made blocked) in blocks of `block`.
  absl::StatusOr<ValueId> BlockedOf(ValueId source_value, int64_t block) {
    auto native = native_.find(source_value);
    if (native != native_.end() && native->second.block == block) return native->second.value;
    auto cached = transformed_.find({source_value, block});
    if (cached != transformed_.end()) return cached->second;
    if (absl::Status s = MakeNchw(source_value); !s.ok()) return s;
    absl::StatusOr<ValueId> v =
        Add(OpKind::kToNchwc,
            Named(source_.value(source_value).name, absl::StrCat(".nchw", block, "c")),
            Attributes{{"block", block}}, {rebuilt_.Map(source_value)});
    if (v.ok()) transformed_[{source_value, block}] = *v;
    return v;
  }

  // A constant's first axis padded with zeros to `padded`, the rest as they are.
  absl::StatusOr<ValueId> PadAxes(ValueId value, const std::vector<int64_t>& padded,
                                  const std::string& name) {
    const std::vector<int64_t>& shape = g().value(value).type.shape;
    std::vector<int64_t> pads(2 * shape.size(), 0);
    bool any = false;
    for (size_t d = 0; d < shape.size(); ++d) {
      pads[shape.size() + d] = padded[d] - shape[d];
      any = any || padded[d] != shape[d];
    }
    if (!any) return value;
    return Add(OpKind::kPad, name, Attributes{{"pads", pads}}, {value});
  }

  absl::StatusOr<ValueId> Reshape(ValueId value, std::vector<int64_t> shape,
                                  const std::string& name) {
    return Add(OpKind::kReshape, name, Attributes{{"shape", std::move(shape)}}, {value});
  }

  // A bias [C] as [ceil(C/block), block], zero past C.
  absl::StatusOr<ValueId> BlockedBias(ValueId bias, int64_t channels, int64_t block,
                                      const std::string& name) {
    const int64_t blocks = CeilDiv(channels, block);
    absl::StatusOr<ValueId> padded =
        PadAxes(rebuilt_.Map(bias), {blocks * block}, Named(name, ".pad"));
    if (!padded.ok()) return padded.status();
    return Reshape(*padded, {blocks, block}, Named(name, ".blocks"));
  }

  // Adds the blocked node for `node` and records its output as blocked.
  absl::Status AddBlocked(const Node& node, OpKind op, Attributes attrs,
                          std::vector<ValueId> inputs, int64_t block, int64_t channels) {
    const std::string& name = source_.value(node.outputs[0]).name;
    absl::StatusOr<ValueId> out =
        Add(op, node.name, std::move(attrs), std::move(inputs), Named(name, ".nchwc"));
    if (!out.ok()) return out.status();
    native_[node.outputs[0]] = Blocked{*out, block, channels};
    return absl::OkStatus();
  }

  // An elementwise or broadcast op applied to blocked inputs; its output is blocked like `like`.
  absl::Status Follow(const Node& node, std::vector<ValueId> inputs, const Blocked& like) {
    return AddBlocked(node, node.op, node.attrs, std::move(inputs), like.block, like.channels);
  }

  static bool PaddingStaysFinite(const Node& node, const Blocked& in) {
    return in.channels % in.block == 0 || !MayLeaveFinite(node);
  }

  // Shapes [N,C,H,W] and [N,C,h,w] where each of h, w is H, W or 1 (either way): a squeeze-
  // and-excitation's scale against its feature map.
  static bool ChannelwiseBroadcast(const std::vector<int64_t>& a, const std::vector<int64_t>& b) {
    if (a.size() != 4 || b.size() != 4 || a[0] != b[0] || a[1] != b[1]) return false;
    for (int d = 2; d < 4; ++d) {
      if (a[d] != b[d] && a[d] != 1 && b[d] != 1) return false;
    }
    return true;
  }

  absl::StatusOr<bool> RewriteBinary(const Node& node) {
    const ValueId a = node.inputs[0], b = node.inputs[1];
    const bool a_blocked = native_.count(a) != 0, b_blocked = native_.count(b) != 0;
    if (!a_blocked && !b_blocked) return false;
    const Blocked& like = native_.at(a_blocked ? a : b);
    if (!PaddingStaysFinite(node, like)) return false;
    const ValueId other = a_blocked ? b : a;
    const runtime::NDArray* constant = source_.ConstantData(other);
    if (constant != nullptr && constant->NumElements() == 1) {
      std::vector<ValueId> inputs = {like.value, rebuilt_.Map(other)};
      if (!a_blocked) std::swap(inputs[0], inputs[1]);
      if (absl::Status s = Follow(node, std::move(inputs), like); !s.ok()) return s;
      return true;
    }
    if (constant != nullptr) {
      // One value per channel ([C,1,1] or [1,C,1,1]): the same blocks, zero past C.
      const std::vector<int64_t>& shape = source_.value(other).type.shape;
      const bool per_channel = constant->NumElements() == like.channels &&
                               (shape.size() == 3 || (shape.size() == 4 && shape[0] == 1)) &&
                               shape[shape.size() - 1] == 1 && shape[shape.size() - 2] == 1;
      if (!per_channel) return false;
      const std::string name = Named(source_.value(other).name, ".nchwc");
      const int64_t blocks = CeilDiv(like.channels, like.block);
      absl::StatusOr<ValueId> flat =
          Reshape(rebuilt_.Map(other), {like.channels}, Named(name, ".flat"));
      if (flat.ok()) flat = PadAxes(*flat, {blocks * like.block}, Named(name, ".pad"));
      if (flat.ok()) flat = Reshape(*flat, {1, blocks, 1, 1, like.block}, name);
      if (!flat.ok()) return flat.status();
      std::vector<ValueId> inputs = {like.value, *flat};
      if (!a_blocked) std::swap(inputs[0], inputs[1]);
      if (absl::Status s = Follow(node, std::move(inputs), like); !s.ok()) return s;
      return true;
    }
    // Two activations of one shape, or a per-channel one against a feature map: both in the
    // first blocked one's blocks.
    if (!ChannelwiseBroadcast(source_.value(a).type.shape, source_.value(b).type.shape)) {
      return false;
    }
    absl::StatusOr<ValueId> ba = BlockedOf(a, like.block);
    if (!ba.ok()) return ba.status();
    absl::StatusOr<ValueId> bb = BlockedOf(b, like.block);
    if (!bb.ok()) return bb.status();
    if (absl::Status s = Follow(node, {*ba, *bb}, like); !s.ok()) return s;
    return true;
  }

  absl::StatusOr<bool> RewriteConv(size_t index, const Node& node) {
    if (!IsBlockableConv(source_, node)) return false;
    const TensorType& x = source_.value(node.inputs[0]).type;
    const TensorType& w = source_.value(node.inputs[1]).type;
    absl::StatusOr<int64_t> groups = node.attrs.Int("groups", 1);
    const topi::Window2d window = WindowOf(node);
    const int64_t channels = x.shape[1], filters = w.shape[0], kh = w.shape[2], kw = w.shape[3];
    auto native = native_.find(node.inputs[0]);
    Attributes attrs;
    for (const char* name : {"strides", "pads", "dilations"}) {
      if (node.attrs.Has(name)) attrs.Set(name, *node.attrs.Ints(name, {}));
    }
    if (*groups == 1) {
      const topi::Conv2dNchwcScheduleConfig config =
          topi::DefaultConv2dNchwcConfig(x.shape, w.shape, window, cpu_);
      absl::StatusOr<int64_t> planned = PlannedOcBlock(index, node, filters, config.oc_block);
      if (!planned.ok()) return planned.status();
      const int64_t oc = *planned;
      const int64_t ic = native != native_.end() ? native->second.block : config.ic_block;
      const int64_t ob = CeilDiv(filters, oc), cb = CeilDiv(channels, ic);
      absl::StatusOr<ValueId> data = BlockedOf(node.inputs[0], ic);
      if (!data.ok()) return data.status();
      // OIHW -> [OB][CB][KH][KW][ic][oc], zero past the real channels.
      attrs.Set("in_channels", channels);
      attrs.Set("channels", filters);
      if (absl::Status s = AddBlockedConv(
              node, OpKind::kConv2dNchwc, *data,
              PackedWeight(
                  node, {{ob * oc, cb * ic, kh, kw}, {ob, oc, cb, ic, kh, kw}, {0, 2, 4, 5, 3, 1}}),
              oc, filters, std::move(attrs));
          !s.ok()) {
        return s;
      }
      return true;
    }
    if (*groups != channels || filters != channels || w.shape[1] != 1) {
      return RewriteGroupConv(node, *groups, std::move(attrs));
    }
    const int64_t lanes = cpu_.Lanes(4);
    int64_t block =
        topi::DefaultDepthwiseConv2dNchwcConfig(x.shape, kh, kw, window, cpu_).channel_block;
    if (native != native_.end() && native->second.block % lanes == 0) {
      block = native->second.block;
    }
    const int64_t cb = CeilDiv(channels, block);
    absl::StatusOr<ValueId> data = BlockedOf(node.inputs[0], block);
    if (!data.ok()) return data.status();
    // [C][1][KH][KW] -> [CB][KH][KW][c], zero past the real channels.
    attrs.Set("channels", channels);
    if (absl::Status s = AddBlockedConv(
            node, OpKind::kDepthwiseConv2dNchwc, *data,
            PackedWeight(node, {{cb * block, 1, kh, kw}, {cb, block, kh, kw}, {0, 2, 3, 1}}), block,
            channels, std::move(attrs));
        !s.ok()) {
      return s;
    }
    return true;
  }

  // conv2d_int8 -> conv2d_int8_nchwc: output channels in blocks of the dot product's lanes,
  // input channels in their producer's block when that is whole groups of four, else in one
  // vector's worth (at most the channels rounded up to four).
  absl::Status RewriteInt8Conv(const Node& node) {
    const TensorType& x = source_.value(node.inputs[0]).type;
    const TensorType& w = source_.value(node.inputs[1]).type;
    const int64_t channels = x.shape[1], filters = w.shape[0], kh = w.shape[2], kw = w.shape[3];
    const int64_t lanes = cpu_.Lanes(4);
    auto native = native_.find(node.inputs[0]);
    int64_t ic = std::min(lanes, CeilDiv(channels, 4) * 4);
    if (native != native_.end() && native->second.block % 4 == 0) ic = native->second.block;
    const int64_t ob = CeilDiv(filters, lanes), cb = CeilDiv(channels, ic);
    absl::StatusOr<ValueId> data = BlockedOf(node.inputs[0], ic);
    if (!data.ok()) return data.status();
    // OIHW -> [OB][CB][KH][KW][ic/4][L][4], zero past the real channels.
    const std::string wname = Named(node.name, ".weight");
    absl::StatusOr<ValueId> weight =
        PadAxes(rebuilt_.Map(node.inputs[1]), {ob * lanes, cb * ic, kh, kw}, Named(wname, ".pad"));
    if (weight.ok()) {
      weight = Reshape(*weight, {ob, lanes, cb, ic / 4, 4, kh, kw}, Named(wname, ".split"));
    }
    if (weight.ok()) {
      weight = Add(OpKind::kTranspose, Named(wname, ".blocks"),
                   Attributes{{"perm", std::vector<int64_t>{0, 2, 5, 6, 3, 1, 4}}}, {*weight});
    }
    if (!weight.ok()) return weight.status();
    std::vector<ValueId> inputs = {*data, *weight};
    static constexpr const char* kParameters[] = {".w_sum", ".scale", ".bias"};
    for (size_t i = 2; i < 5; ++i) {
      absl::StatusOr<ValueId> p =
          BlockedBias(node.inputs[i], filters, lanes, Named(node.name, kParameters[i - 2]));
      if (!p.ok()) return p.status();
      inputs.push_back(*p);
    }
    Attributes attrs = node.attrs;
    attrs.Set("channels", filters);
    return AddBlocked(node, OpKind::kConv2dInt8Nchwc, std::move(attrs), std::move(inputs), lanes,
                      filters);
  }

  // The plan's output block for conv `index`, else the rule's.
  absl::StatusOr<int64_t> PlannedOcBlock(size_t index, const Node& node, int64_t filters,
                                         int64_t rule) {
    auto it = plan_.find(index);
    if (it == plan_.end()) return rule;
    planned_.insert(index);
    const std::vector<int64_t> allowed = ConvOcBlockCandidates(filters, cpu_);
    if (std::find(allowed.begin(), allowed.end(), it->second) == allowed.end()) {
      return absl::InvalidArgumentError(
          absl::StrCat("layout plan: conv ", NodeLabel(index, node), " of ", filters,
                       " output channels cannot have an output block of ", it->second,
                       " (its candidates: ", absl::StrJoin(allowed, ", "), ")"));
    }
    return it->second;
  }

  // How a conv's constant weight becomes its blocked form: padded with zeros to `padded`, split
  // into `split`, transposed by `perm` (nodes that constant folding evaluates).
  struct WeightPacking {
    std::vector<int64_t> padded, split, perm;
  };

  // `node`'s constant weight in its blocked form.
  absl::StatusOr<ValueId> PackedWeight(const Node& node, const WeightPacking& packing) {
    const std::string wname = Named(node.name, ".weight");
    absl::StatusOr<ValueId> weight =
        PadAxes(rebuilt_.Map(node.inputs[1]), packing.padded, Named(wname, ".pad"));
    if (weight.ok()) weight = Reshape(*weight, packing.split, Named(wname, ".split"));
    if (weight.ok()) {
      weight = Add(OpKind::kTranspose, Named(wname, ".blocks"), Attributes{{"perm", packing.perm}},
                   {*weight});
    }
    return weight;
  }

  // The blocked conv `op` for `node` over blocked `data` with its blocked `weight`: its bias in
  // [blocks, block], and its output recorded as `channels` real channels in blocks of `block`.
  absl::Status AddBlockedConv(const Node& node, OpKind op, ValueId data,
                              absl::StatusOr<ValueId> weight, int64_t block, int64_t channels,
                              Attributes attrs) {
    if (!weight.ok()) return weight.status();
    std::vector<ValueId> inputs = {data, *weight};
    if (node.inputs.size() == 3) {
      absl::StatusOr<ValueId> bias =
          BlockedBias(node.inputs[2], channels, block, Named(node.name, ".bias"));
      if (!bias.ok()) return bias.status();
      inputs.push_back(*bias);
    }
    return AddBlocked(node, op, std::move(attrs), std::move(inputs), block, channels);
  }

  // A grouped conv (not depthwise) -> group_conv2d_nchwc, in one block size for its input and
  // output: whole blocks per group (no waste), or whole groups in each output block reading whole
  // input blocks (each block's weight block-diagonal: block / width_out times the
  // multiplications). Of the blocks that fit, the least waste, its producer's block on a tie.
  // False, and the conv stays NCHW, where no block fits the groups.
  absl::StatusOr<bool> RewriteGroupConv(const Node& node, int64_t groups, Attributes attrs) {
    const TensorType& x = source_.value(node.inputs[0]).type;
    const TensorType& w = source_.value(node.inputs[1]).type;
    const int64_t channels = x.shape[1], filters = w.shape[0], kh = w.shape[2], kw = w.shape[3];
    const int64_t width_in = channels / groups, width_out = filters / groups;
    const int64_t lanes = cpu_.Lanes(4);
    std::vector<int64_t> candidates = {lanes, 2 * lanes};
    auto native = native_.find(node.inputs[0]);
    if (native != native_.end()) candidates.insert(candidates.begin(), native->second.block);
    int64_t block = 0, waste = 0;
    for (int64_t b : candidates) {
      int64_t cost = 0;
      if (width_in % b == 0 && width_out % b == 0) {
        cost = 1;
      } else if (b % width_out == 0 && width_in % width_out == 0 &&
                 (width_in == width_out || filters % b == 0)) {
        // An output block's groups read width_in / width_out whole input blocks (and the data
        // then has exactly that many blocks per output block).
        cost = b / width_out;
      }
      if (b % lanes != 0 || cost == 0 || (block != 0 && cost >= waste)) continue;
      block = b;
      waste = cost;
    }
    if (block == 0) return false;
    absl::StatusOr<ValueId> data = BlockedOf(node.inputs[0], block);
    if (!data.ok()) return data.status();
    attrs.Set("in_channels", channels);
    attrs.Set("channels", filters);
    absl::StatusOr<ValueId> weight;
    if (width_out % block == 0) {
      // [O][width_in][KH][KW] -> [O/b][width_in/b][KH][KW][ic][oc]: a dense conv's packing
      // within each group.
      const int64_t k = width_in / block, ob = filters / block;
      attrs.Set("out_blocks_per_group", width_out / block);
      weight = PackedWeight(
          node, {{filters, width_in, kh, kw}, {ob, block, k, block, kh, kw}, {0, 2, 4, 5, 3, 1}});
    } else {
      attrs.Set("out_blocks_per_group", 1);
      weight = BlockDiagonalWeight(node, block, width_in, width_out);
    }
    if (absl::Status s = AddBlockedConv(node, OpKind::kGroupConv2dNchwc, *data, std::move(weight),
                                        block, filters, std::move(attrs));
        !s.ok()) {
      return s;
    }
    return true;
  }

  // The weight [O][width_in][KH][KW] of groups narrower than a block as
  // [ceil(O/b)][K][KH][KW][b][b], K = width_in / width_out: the groups of an output block read
  // its K input blocks in order, each output channel its own group's width_in of them; zero
  // elsewhere and past O.
  absl::StatusOr<ValueId> BlockDiagonalWeight(const Node& node, int64_t block, int64_t width_in,
                                              int64_t width_out) {
    const runtime::NDArray* source = source_.ConstantData(node.inputs[1]);
    const std::vector<int64_t>& shape = source->shape();
    const int64_t filters = shape[0], kh = shape[2], kw = shape[3];
    const int64_t blocks = CeilDiv(filters, block), k = width_in / width_out;
    absl::StatusOr<runtime::NDArray> packed =
        runtime::NDArray::Empty({blocks, k, kh, kw, block, block}, source->dtype());
    if (!packed.ok()) return packed.status();
    const float* in = static_cast<const float*>(source->data());
    float* out = static_cast<float*>(packed->data());
    for (int64_t o = 0; o < filters; ++o) {
      const int64_t ob = o / block, oi = o % block, first = oi / width_out * width_in;
      for (int64_t c = 0; c < width_in; ++c) {
        const int64_t kb = (first + c) / block, ci = (first + c) % block;
        for (int64_t y = 0; y < kh; ++y) {
          for (int64_t x = 0; x < kw; ++x) {
            const int64_t to = ((((ob * k + kb) * kh + y) * kw + x) * block + ci) * block + oi;
            out[to] = in[((o * width_in + c) * kh + y) * kw + x];
          }
        }
      }
    }
    return g().AddConstant(Named(node.name, ".weight.blocks"), *std::move(packed));
  }

  static std::string NodeLabel(size_t index, const Node& node) {
    return node.name.empty() ? absl::StrCat("#", index) : absl::StrCat("'", node.name, "'");
  }

  const Graph& source_;
  GraphRebuilder rebuilt_;
  const topi::CpuInfo& cpu_;
  const ConvBlockPlan& plan_;
  std::set<size_t> planned_;           // the plan's entries a conv took
  std::map<ValueId, Blocked> native_;  // source values computed in a blocked layout
  std::set<ValueId> made_nchw_;        // of those, the ones whose NCHW form exists
  std::map<std::pair<ValueId, int64_t>, ValueId> transformed_;  // to_nchwc made per block
};

}  // namespace

bool IsPlannableConv(const Graph& graph, const Node& node) {
  return IsBlockableConv(graph, node) && node.attrs.Int("groups", 1).value_or(0) == 1;
}

std::vector<int64_t> ConvOcBlockCandidates(int64_t filters, const topi::CpuInfo& cpu) {
  const int64_t lanes = cpu.Lanes(4);
  if (filters >= 2 * lanes) return {lanes, 2 * lanes};
  if (filters >= lanes) return {lanes};
  return {topi::NarrowOcBlock(filters, cpu)};
}

absl::StatusOr<Graph> RewriteLayoutNchwc(const Graph& graph, const topi::CpuInfo& cpu,
                                         const ConvBlockPlan& plan) {
  LayoutRewriter rewriter(graph, cpu, plan);
  for (size_t i = 0; i < graph.nodes().size(); ++i) {
    if (absl::Status s = rewriter.Rewrite(i, graph.nodes()[i]); !s.ok()) return s;
  }
  return rewriter.Finish();
}

}  // namespace tunefarm::graph
