#include "compiler/graph/graph.h"

#include "absl/strings/str_cat.h"
#include "compiler/graph/op_registry.h"

namespace tunefarm::graph {

ValueId Graph::AddInput(std::string name, TensorType type) {
  ValueId id = static_cast<ValueId>(values_.size());
  values_.push_back(Value{ValueKind::kInput, std::move(name), std::move(type)});
  inputs_.push_back(id);
  return id;
}

ValueId Graph::AddConstant(std::string name, runtime::NDArray data) {
  ValueId id = static_cast<ValueId>(values_.size());
  TensorType type{data.dtype(), data.shape()};
  values_.push_back(Value{ValueKind::kConstant, std::move(name), std::move(type),
                          static_cast<int32_t>(constants_.size())});
  constants_.push_back(std::move(data));
  return id;
}

absl::StatusOr<std::vector<ValueId>> Graph::AddOp(OpKind op, std::string name, Attributes attrs,
                                                  std::vector<ValueId> inputs,
                                                  std::vector<std::string> output_names) {
  Node node{op, std::move(name), std::move(attrs), std::move(inputs), {}};
  std::vector<TensorType> input_types;
  for (ValueId id : node.inputs) {
    if (id < 0 || id >= static_cast<ValueId>(values_.size())) {
      return absl::InvalidArgumentError(absl::StrCat(std::string(OpName(op)), " node '", node.name,
                                                     "': input value %", id, " does not exist"));
    }
    input_types.push_back(values_[id].type);
  }
  absl::StatusOr<std::vector<TensorType>> types = InferOutputTypes(node, input_types);
  if (!types.ok()) return types.status();
  return AddNode(std::move(node), *std::move(types), std::move(output_names));
}

std::vector<ValueId> Graph::AddNode(Node node, std::vector<TensorType> output_types,
                                    std::vector<std::string> output_names) {
  int32_t node_index = static_cast<int32_t>(nodes_.size());
  node.outputs.clear();
  for (size_t i = 0; i < output_types.size(); ++i) {
    node.outputs.push_back(static_cast<ValueId>(values_.size()));
    std::string name = i < output_names.size() ? std::move(output_names[i]) : std::string();
    values_.push_back(
        Value{ValueKind::kNodeOutput, std::move(name), std::move(output_types[i]), node_index});
  }
  nodes_.push_back(std::move(node));
  return nodes_.back().outputs;
}

void Graph::AddOutput(std::string name, ValueId value) {
  outputs_.push_back(GraphOutput{std::move(name), value});
}

const runtime::NDArray* Graph::ConstantData(ValueId id) const {
  if (id < 0 || id >= static_cast<ValueId>(values_.size())) return nullptr;
  const Value& v = values_[id];
  return v.kind == ValueKind::kConstant ? &constants_[v.index] : nullptr;
}

std::optional<ValueId> Graph::FindValue(const std::string& name) const {
  for (size_t i = 0; i < values_.size(); ++i) {
    if (values_[i].name == name) return static_cast<ValueId>(i);
  }
  return std::nullopt;
}

}  // namespace tunefarm::graph
