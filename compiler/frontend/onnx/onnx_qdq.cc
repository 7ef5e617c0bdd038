#include "compiler/frontend/onnx/onnx_qdq.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <set>

#include "absl/strings/str_cat.h"
#include "compiler/frontend/onnx/model_file.h"
#include "compiler/frontend/onnx/tensor_proto.h"
#include "runtime/data_type.h"

namespace tunefarm::frontend::onnx {
namespace {

using ::onnx::GraphProto;
using ::onnx::ModelProto;
using ::onnx::NodeProto;
using ::onnx::TensorProto;

constexpr int64_t kMaxModelBytes = (int64_t{1} << 31) - 1;

int64_t DefaultOpset(const ModelProto& model) {
  for (const auto& o : model.opset_import()) {
    if (o.domain().empty() || o.domain() == "ai.onnx") return o.version();
  }
  return 0;
}

int64_t IntAttr(const NodeProto& node, const std::string& name, int64_t fallback) {
  for (const auto& a : node.attribute()) {
    if (a.name() == name) return a.i();
  }
  return fallback;
}

double FloatAttr(const NodeProto& node, const std::string& name, double fallback) {
  for (const auto& a : node.attribute()) {
    if (a.name() == name) return a.f();
  }
  return fallback;
}

// A quantizable op: its weight input and the weight's output-channel axis, its bias input.
struct QuantizableOp {
  int node = 0;
  int weight = 1;
  int axis = 0;
  int bias = -1;
};

class QdqModel {
 public:
  explicit QdqModel(ModelProto model) : model_(std::move(model)) {
    for (const TensorProto& t : graph().initializer()) initializers_[t.name()] = &t;
    // Exporters share a weight through Identity nodes: such an output is that initializer.
    for (const NodeProto& n : graph().node()) {
      if (n.op_type() == "Identity" && n.input_size() == 1 && n.output_size() == 1) {
        auto it = initializers_.find(n.input(0));
        if (it != initializers_.end()) initializers_[n.output(0)] = it->second;
      }
    }
    for (int i = 0; i < graph().node_size(); ++i) {
      for (const std::string& in : graph().node(i).input()) consumers_[in].push_back(i);
    }
    for (const auto& out : graph().output()) outputs_.insert(out.name());
    for (int i = 0; i < graph().node_size(); ++i) {
      if (std::optional<QuantizableOp> op = AsQuantizable(i)) ops_.push_back(*op);
    }
  }

  const GraphProto& graph() const { return model_.graph(); }
  ModelProto& model() { return model_; }
  const std::vector<QuantizableOp>& ops() const { return ops_; }

  // The activations to quantize, in graph order: each op's data input, and its output or, when
  // a Relu or Clip alone reads that, the activation's output (which the quantize then clamps).
  std::vector<std::string> Activations() const {
    std::vector<std::string> out;
    std::set<std::string> seen;
    auto add = [&](const std::string& t) {
      if (!t.empty() && !initializers_.count(t) && seen.insert(t).second) out.push_back(t);
    };
    for (const QuantizableOp& op : ops_) {
      const NodeProto& n = graph().node(op.node);
      add(n.input(0));
      std::string y = n.output(0);
      auto readers = consumers_.find(y);
      if (readers != consumers_.end() && readers->second.size() == 1 && !outputs_.count(y)) {
        const NodeProto& next = graph().node(readers->second[0]);
        if (next.op_type() == "Relu" || next.op_type() == "Clip") y = next.output(0);
      }
      add(y);
    }
    return out;
  }

  bool IsFloatInitializer(const std::string& name, int rank) const {
    auto it = initializers_.find(name);
    return it != initializers_.end() && it->second->data_type() == TensorProto::FLOAT &&
           it->second->dims_size() == rank;
  }

  const TensorProto* Initializer(const std::string& name) const {
    auto it = initializers_.find(name);
    return it == initializers_.end() ? nullptr : it->second;
  }

 private:
  std::optional<QuantizableOp> AsQuantizable(int index) const {
    const NodeProto& n = graph().node(index);
    if (n.input_size() < 2 || n.output_size() != 1 || initializers_.count(n.input(0))) {
      return std::nullopt;
    }
    QuantizableOp op;
    op.node = index;
    auto bias = [&](int i, int64_t channels) {
      if (n.input_size() <= i || !IsFloatInitializer(n.input(i), 1)) return -1;
      return initializers_.at(n.input(i))->dims(0) == channels ? i : -1;
    };
    if (n.op_type() == "Conv" && IsFloatInitializer(n.input(1), 4)) {
      op.axis = 0;
      op.bias = bias(2, initializers_.at(n.input(1))->dims(0));
      return op;
    }
    if (n.op_type() == "Gemm" && IsFloatInitializer(n.input(1), 2) &&
        IntAttr(n, "transA", 0) == 0) {
      op.axis = IntAttr(n, "transB", 0) != 0 ? 0 : 1;
      const bool plain = FloatAttr(n, "alpha", 1.0) == 1.0 && FloatAttr(n, "beta", 1.0) == 1.0;
      op.bias = plain ? bias(2, initializers_.at(n.input(1))->dims(op.axis)) : -1;
      return op;
    }
    if (n.op_type() == "MatMul" && IsFloatInitializer(n.input(1), 2)) {
      op.axis = 1;
      return op;
    }
    return std::nullopt;
  }

  ModelProto model_;
  std::map<std::string, const TensorProto*> initializers_;
  std::map<std::string, std::vector<int>> consumers_;
  std::set<std::string> outputs_;
  std::vector<QuantizableOp> ops_;
};

absl::StatusOr<QdqModel> ParseForQdq(std::string_view bytes) {
  absl::StatusOr<ModelProto> model = ParseModel(bytes, kMaxModelBytes);
  if (!model.ok()) return model.status();
  const int64_t opset = DefaultOpset(*model);
  if (opset < 10) {
    return absl::InvalidArgumentError(absl::StrCat(
        "the model's opset is ", opset, "; QuantizeLinear needs 10 or later (re-export it)"));
  }
  QdqModel qdq(*std::move(model));
  if (qdq.ops().empty()) {
    return absl::InvalidArgumentError(
        "nothing to quantize: no Conv, Gemm or MatMul reads a constant float weight");
  }
  return qdq;
}

TensorProto* AddInitializer(GraphProto* g, const std::string& name, std::vector<int64_t> dims,
                            TensorProto::DataType type, const void* data, size_t bytes) {
  TensorProto* t = g->add_initializer();
  t->set_name(name);
  t->set_data_type(type);
  for (int64_t d : dims) t->add_dims(d);
  t->set_raw_data(std::string(static_cast<const char*>(data), bytes));
  return t;
}

NodeProto MakeNode(const std::string& op, std::vector<std::string> inputs,
                   const std::string& output, std::optional<int64_t> axis) {
  NodeProto n;
  n.set_op_type(op);
  n.set_name(output);
  for (std::string& in : inputs) n.add_input(std::move(in));
  n.add_output(output);
  if (axis) {
    auto* a = n.add_attribute();
    a->set_name("axis");
    a->set_type(::onnx::AttributeProto::INT);
    a->set_i(*axis);
  }
  return n;
}

// uint8 scale and zero point of a range widened to hold 0.
std::pair<float, uint8_t> Uint8Parameters(QdqRange r) {
  const double lo = std::min(r.lo, 0.0), hi = std::max(r.hi, 0.0);
  double scale = (hi - lo) / 255.0;
  if (!(scale > 0)) scale = 1.0;
  const float s = static_cast<float>(scale);
  const double zero = std::nearbyint(-lo / s);
  return {s, static_cast<uint8_t>(std::clamp(zero, 0.0, 255.0))};
}

// The int8 form of one weight: per output channel along `axis` (or one scale), symmetric.
struct Int8Weight {
  std::vector<int8_t> values;
  std::vector<float> scales;
};

Int8Weight QuantizeWeight(const runtime::NDArray& w, int axis, bool per_channel) {
  const std::vector<int64_t>& shape = w.shape();
  const int64_t n = w.NumElements();
  const int64_t channels = per_channel ? shape[axis] : 1;
  int64_t inner = 1;
  for (size_t d = axis + 1; d < shape.size(); ++d) inner *= shape[d];
  auto channel = [&](int64_t i) { return per_channel ? (i / inner) % channels : 0; };
  const auto* v = static_cast<const float*>(w.data());
  std::vector<double> largest(static_cast<size_t>(channels), 0.0);
  for (int64_t i = 0; i < n; ++i) {
    largest[channel(i)] = std::max(largest[channel(i)], std::fabs(static_cast<double>(v[i])));
  }
  Int8Weight q;
  for (double m : largest) q.scales.push_back(m > 0 ? static_cast<float>(m / 127.0) : 1.0f);
  q.values.resize(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    const double x = std::nearbyint(static_cast<double>(v[i]) / q.scales[channel(i)]);
    q.values[i] = static_cast<int8_t>(std::clamp(x, -127.0, 127.0));
  }
  return q;
}

// A name not yet used in the graph, from `base`.
class Names {
 public:
  explicit Names(const GraphProto& g) {
    for (const auto& t : g.initializer()) used_.insert(t.name());
    for (const auto& n : g.node()) {
      for (const auto& o : n.output()) used_.insert(o);
      for (const auto& i : n.input()) used_.insert(i);
    }
    for (const auto& i : g.input()) used_.insert(i.name());
  }
  std::string Fresh(const std::string& base) {
    std::string name = base;
    for (int k = 1; !used_.insert(name).second; ++k) name = absl::StrCat(base, "_", k);
    return name;
  }

 private:
  std::set<std::string> used_;
};

}  // namespace

absl::StatusOr<QdqCalibrationPlan> PlanQdqCalibration(std::string_view model_bytes) {
  absl::StatusOr<QdqModel> qdq = ParseForQdq(model_bytes);
  if (!qdq.ok()) return qdq.status();
  QdqCalibrationPlan plan;
  plan.tensors = qdq->Activations();
  GraphProto* g = qdq->model().mutable_graph();
  std::set<std::string> outputs;
  for (const auto& out : g->output()) outputs.insert(out.name());
  for (const std::string& t : plan.tensors) {
    if (!outputs.count(t)) g->add_output()->set_name(t);
  }
  if (!qdq->model().SerializeToString(&plan.instrumented_model)) {
    return absl::InternalError("the instrumented model does not serialize");
  }
  return plan;
}

absl::StatusOr<std::string> RewriteAsQdq(std::string_view model_bytes,
                                         const std::map<std::string, QdqRange>& ranges,
                                         const QdqOptions& options, QdqSummary* summary) {
  absl::StatusOr<QdqModel> parsed = ParseForQdq(model_bytes);
  if (!parsed.ok()) return parsed.status();
  QdqModel& qdq = *parsed;
  const std::vector<std::string> activations = qdq.Activations();
  for (const std::string& t : activations) {
    auto it = ranges.find(t);
    if (it == ranges.end()) {
      return absl::InvalidArgumentError(absl::StrCat("no calibrated range for tensor '", t, "'"));
    }
    if (!std::isfinite(it->second.lo) || !std::isfinite(it->second.hi) ||
        it->second.lo > it->second.hi) {
      return absl::InvalidArgumentError(absl::StrCat("the range of tensor '", t, "' is [",
                                                     it->second.lo, ", ", it->second.hi,
                                                     "]: not a finite interval"));
    }
  }
  const bool per_channel = options.per_channel_weights && DefaultOpset(qdq.model()) >= 13;
  GraphProto* g = qdq.model().mutable_graph();
  Names names(*g);
  QdqSummary done;
  done.per_channel = per_channel;

  // Each activation: its scale and zero point, and the name its readers read it by.
  std::map<std::string, std::pair<float, std::string>> dequantized;  // tensor -> (scale, DQ out)
  std::map<std::string, std::vector<NodeProto>> after;               // tensor -> its Q/DQ nodes
  for (const std::string& t : activations) {
    const auto [scale, zero] = Uint8Parameters(ranges.at(t));
    const std::string s = names.Fresh(t + "_scale"), z = names.Fresh(t + "_zero_point");
    AddInitializer(g, s, {}, TensorProto::FLOAT, &scale, sizeof(scale));
    AddInitializer(g, z, {}, TensorProto::UINT8, &zero, sizeof(zero));
    const std::string q = names.Fresh(t + "_quantized"), dq = names.Fresh(t + "_dequantized");
    after[t] = {MakeNode("QuantizeLinear", {t, s, z}, q, std::nullopt),
                MakeNode("DequantizeLinear", {q, s, z}, dq, std::nullopt)};
    dequantized[t] = {scale, dq};
    ++done.activations;
  }

  // Each weight (once, however many ops read it) as int8, and each bias as int32.
  std::vector<NodeProto> front;
  std::map<std::string, std::pair<std::vector<float>, std::string>> weights;  // -> scales, DQ out
  std::map<int, std::map<int, std::string>> replaced;  // node -> input -> new name
  for (const QuantizableOp& op : qdq.ops()) {
    const NodeProto& n = g->node(op.node);
    const std::string& w = n.input(op.weight);
    if (!weights.count(w)) {
      absl::StatusOr<runtime::NDArray> array =
          ArrayFromTensorProto(*qdq.Initializer(w), "initializer '" + w + "'");
      if (!array.ok()) return array.status();
      const Int8Weight q = QuantizeWeight(*array, op.axis, per_channel);
      const std::vector<int64_t> scale_dims =
          per_channel ? std::vector<int64_t>{static_cast<int64_t>(q.scales.size())}
                      : std::vector<int64_t>{};
      const std::string wq = names.Fresh(w + "_quantized"), ws = names.Fresh(w + "_scale"),
                        wz = names.Fresh(w + "_zero_point"), wd = names.Fresh(w + "_dequantized");
      AddInitializer(g, wq, array->shape(), TensorProto::INT8, q.values.data(), q.values.size());
      AddInitializer(g, ws, scale_dims, TensorProto::FLOAT, q.scales.data(),
                     q.scales.size() * sizeof(float));
      const std::vector<int8_t> zeros(q.scales.size(), 0);
      AddInitializer(g, wz, scale_dims, TensorProto::INT8, zeros.data(), zeros.size());
      front.push_back(MakeNode("DequantizeLinear", {wq, ws, wz}, wd,
                               per_channel ? std::optional<int64_t>(op.axis) : std::nullopt));
      weights[w] = {q.scales, wd};
      ++done.weights;
    }
    replaced[op.node][op.weight] = weights[w].second;
    ++done.ops;
    auto x = dequantized.find(n.input(0));
    if (op.bias < 0 || x == dequantized.end()) continue;
    absl::StatusOr<runtime::NDArray> bias =
        ArrayFromTensorProto(*qdq.Initializer(n.input(op.bias)), "bias '" + n.input(op.bias) + "'");
    if (!bias.ok()) return bias.status();
    const std::vector<float>& sw = weights[w].first;
    const int64_t channels = bias->NumElements();
    std::vector<float> scales(static_cast<size_t>(channels));
    std::vector<int32_t> values(static_cast<size_t>(channels));
    bool representable = true;
    for (int64_t c = 0; c < channels; ++c) {
      scales[c] = x->second.first * sw[sw.size() == 1 ? 0 : c];
      const double v = std::nearbyint(static_cast<const float*>(bias->data())[c] / scales[c]);
      representable = representable && scales[c] > 0 && std::fabs(v) < 2147483647.0;
      values[c] = static_cast<int32_t>(v);
    }
    if (!representable) continue;  // stays float: correct, only not fused by other runtimes
    const std::string& b = n.input(op.bias);
    const std::string bq = names.Fresh(b + "_quantized"), bs = names.Fresh(b + "_scale"),
                      bz = names.Fresh(b + "_zero_point"), bd = names.Fresh(b + "_dequantized");
    AddInitializer(g, bq, {channels}, TensorProto::INT32, values.data(), values.size() * 4);
    AddInitializer(g, bs, {channels}, TensorProto::FLOAT, scales.data(), scales.size() * 4);
    const std::vector<int32_t> zeros(values.size(), 0);
    AddInitializer(g, bz, {channels}, TensorProto::INT32, zeros.data(), zeros.size() * 4);
    front.push_back(MakeNode("DequantizeLinear", {bq, bs, bz}, bd, int64_t{0}));
    replaced[op.node][op.bias] = bd;
  }

  // The new node order: the weights' dequantizes, the graph inputs' Q/DQ pairs, then each node
  // (reading the dequantized activations) followed by its outputs' pairs.
  std::vector<NodeProto> nodes = std::move(front);
  for (const auto& in : g->input()) {
    auto it = after.find(in.name());
    if (it != after.end()) nodes.insert(nodes.end(), it->second.begin(), it->second.end());
  }
  for (int i = 0; i < g->node_size(); ++i) {
    NodeProto n = g->node(i);
    for (int k = 0; k < n.input_size(); ++k) {
      auto r = replaced.find(i);
      if (r != replaced.end() && r->second.count(k)) {
        n.set_input(k, r->second.at(k));
      } else if (auto d = dequantized.find(n.input(k)); d != dequantized.end()) {
        n.set_input(k, d->second.second);
      }
    }
    nodes.push_back(std::move(n));
    for (const std::string& out : g->node(i).output()) {
      auto it = after.find(out);
      if (it != after.end()) nodes.insert(nodes.end(), it->second.begin(), it->second.end());
    }
  }
  g->clear_node();
  for (NodeProto& n : nodes) *g->add_node() = std::move(n);

  // The float weights and biases nothing reads any more, and the Identity nodes that shared them.
  std::set<std::string> read;
  for (const auto& n : g->node()) read.insert(n.input().begin(), n.input().end());
  for (const auto& out : g->output()) read.insert(out.name());
  auto* all = g->mutable_node();
  all->erase(std::remove_if(all->begin(), all->end(),
                            [&](const NodeProto& n) {
                              return n.op_type() == "Identity" && n.output_size() == 1 &&
                                     !read.count(n.output(0)) && qdq.Initializer(n.input(0));
                            }),
             all->end());
  read.clear();
  for (const auto& n : g->node()) read.insert(n.input().begin(), n.input().end());
  for (const auto& out : g->output()) read.insert(out.name());
  auto* inits = g->mutable_initializer();
  inits->erase(std::remove_if(inits->begin(), inits->end(),
                              [&](const TensorProto& t) { return !read.count(t.name()); }),
               inits->end());
  std::string bytes;
  if (!qdq.model().SerializeToString(&bytes)) {
    return absl::InternalError("the quantized model does not serialize");
  }
  if (summary != nullptr) *summary = done;
  return bytes;
}

}  // namespace tunefarm::frontend::onnx
