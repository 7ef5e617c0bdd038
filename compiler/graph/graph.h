// Graph: a model as a list of op nodes over typed values. Values are the graph's inputs, its
// constants (weights, kept apart from the nodes) and node outputs, all addressed by ValueId.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler/graph/node.h"
#include "compiler/graph/tensor_type.h"
#include "runtime/ndarray.h"

namespace tunefarm::graph {

enum class ValueKind : uint8_t { kInput, kConstant, kNodeOutput };

struct Value {
  ValueKind kind;
  // The model's name (graph input, initializer or ONNX value name); may be empty for a node
  // output that a pass made.
  std::string name;
  TensorType type;
  // kConstant: the index into constants(); kNodeOutput: the producing node's index.
  int32_t index = -1;
};

struct GraphOutput {
  std::string name;
  ValueId value;
};

// Move-only: constants own their bytes. Nodes are kept in an order where every node comes after
// the producers of its inputs; AddOp guarantees it, and VerifyGraph checks it for graphs that
// passes edit through AddNode.
class Graph {
 public:
  Graph() = default;
  Graph(Graph&&) = default;
  Graph& operator=(Graph&&) = default;

  ValueId AddInput(std::string name, TensorType type);
  // The constant's type is its array's dtype and shape.
  ValueId AddConstant(std::string name, runtime::NDArray data);
  // Applies `op` to existing values, inferring the output types from the registry. The outputs
  // get `output_names` (missing or empty ones stay unnamed). Fails, leaving the graph as it
  // was, when an input id is not a value yet or inference rejects the node.
  absl::StatusOr<std::vector<ValueId>> AddOp(OpKind op, std::string name, Attributes attrs,
                                             std::vector<ValueId> inputs,
                                             std::vector<std::string> output_names = {});
  // Appends `node` with outputs of the given types as they are: no inference, no checks. For
  // passes that rebuild graphs and for tests of the verifier; `node.outputs` is overwritten.
  std::vector<ValueId> AddNode(Node node, std::vector<TensorType> output_types,
                               std::vector<std::string> output_names = {});
  void AddOutput(std::string name, ValueId value);

  const std::vector<Value>& values() const { return values_; }
  const Value& value(ValueId id) const { return values_[id]; }
  const std::vector<Node>& nodes() const { return nodes_; }
  const std::vector<ValueId>& inputs() const { return inputs_; }
  const std::vector<GraphOutput>& outputs() const { return outputs_; }
  const std::vector<runtime::NDArray>& constants() const { return constants_; }
  // The constant data of `id`, or null when it is not a constant.
  const runtime::NDArray* ConstantData(ValueId id) const;
  // The value named `name` (inputs, constants and node outputs), or nullopt.
  std::optional<ValueId> FindValue(const std::string& name) const;

 private:
  std::vector<Value> values_;
  std::vector<Node> nodes_;
  std::vector<ValueId> inputs_;
  std::vector<GraphOutput> outputs_;
  std::vector<runtime::NDArray> constants_;
};

}  // namespace tunefarm::graph
