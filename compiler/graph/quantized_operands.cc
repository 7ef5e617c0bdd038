#include "compiler/graph/quantized_operands.h"

#include "compiler/graph/op_evaluate.h"
#include "runtime/data_type.h"

namespace tunefarm::graph {
namespace {

// The first output of `node` when all its inputs are constants, evaluated here.
std::optional<runtime::NDArray> EvaluateOfConstants(const Graph& g, const Node& node) {
  std::vector<const runtime::NDArray*> inputs;
  for (ValueId in : node.inputs) {
    if (g.ConstantData(in) == nullptr) return std::nullopt;
    inputs.push_back(g.ConstantData(in));
  }
  absl::StatusOr<std::vector<runtime::NDArray>> out = EvaluateOp(node, inputs);
  if (!out.ok() || out->empty()) return std::nullopt;
  return std::move((*out)[0]);
}

}  // namespace

const Node* ProducerOf(const Graph& g, ValueId v, OpKind op) {
  const Value& value = g.value(v);
  if (value.kind != ValueKind::kNodeOutput) return nullptr;
  const Node& node = g.nodes()[value.index];
  return node.op == op ? &node : nullptr;
}

std::optional<std::vector<double>> ConstantElements(const Graph& g, ValueId v) {
  const runtime::NDArray* a = g.ConstantData(v);
  if (a == nullptr) return std::nullopt;
  std::vector<double> out(static_cast<size_t>(a->NumElements()));
  const DLDataType t = a->dtype();
  for (size_t i = 0; i < out.size(); ++i) {
    if (runtime::SameDataType(t, DLDataType{kDLFloat, 32, 1})) {
      out[i] = static_cast<const float*>(a->data())[i];
    } else if (runtime::SameDataType(t, DLDataType{kDLUInt, 8, 1})) {
      out[i] = static_cast<const uint8_t*>(a->data())[i];
    } else if (runtime::SameDataType(t, DLDataType{kDLInt, 8, 1})) {
      out[i] = static_cast<const int8_t*>(a->data())[i];
    } else {
      return std::nullopt;
    }
  }
  return out;
}

std::optional<std::vector<double>> KnownFloatValues(const Graph& g, ValueId v) {
  if (!runtime::SameDataType(g.value(v).type.dtype, DLDataType{kDLFloat, 32, 1})) {
    return std::nullopt;
  }
  if (g.ConstantData(v) != nullptr) return ConstantElements(g, v);
  const Node* dq = ProducerOf(g, v, OpKind::kDequantize);
  std::optional<runtime::NDArray> out = dq ? EvaluateOfConstants(g, *dq) : std::nullopt;
  if (!out) return std::nullopt;
  const auto* f = static_cast<const float*>(out->data());
  return std::vector<double>(f, f + out->NumElements());
}

std::optional<runtime::NDArray> Int8Constant(const Graph& g, ValueId v) {
  const DLDataType i8{kDLInt, 8, 1};
  if (const runtime::NDArray* a = g.ConstantData(v)) {
    if (!runtime::SameDataType(a->dtype(), i8)) return std::nullopt;
    absl::StatusOr<runtime::NDArray> view = a->View(a->shape());
    if (!view.ok()) return std::nullopt;
    return *std::move(view);
  }
  const Node* q = ProducerOf(g, v, OpKind::kQuantize);
  std::optional<runtime::NDArray> out = q ? EvaluateOfConstants(g, *q) : std::nullopt;
  if (!out || !runtime::SameDataType(out->dtype(), i8)) return std::nullopt;
  return out;
}

std::vector<int> ReaderCounts(const Graph& g) {
  std::vector<int> readers(g.values().size(), 0);
  for (const Node& node : g.nodes()) {
    for (ValueId in : node.inputs) ++readers[in];
  }
  for (const GraphOutput& out : g.outputs()) ++readers[out.value];
  return readers;
}

void DropDequantizedOperands(const Graph& g, const Node& node, const std::vector<int>& readers,
                             std::vector<bool>& dropped) {
  for (ValueId in : {node.inputs[0], node.inputs[1]}) {
    const Node* dq = ProducerOf(g, in, OpKind::kDequantize);
    if (dq == nullptr || readers[in] != 1) continue;
    dropped[g.value(in).index] = true;
    const Node* q = ProducerOf(g, dq->inputs[0], OpKind::kQuantize);
    if (in == node.inputs[1] && q != nullptr && readers[dq->inputs[0]] == 1) {
      dropped[g.value(dq->inputs[0]).index] = true;
    }
  }
}

}  // namespace tunefarm::graph
