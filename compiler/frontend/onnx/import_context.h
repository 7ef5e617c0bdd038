// ImportContext: the state of one import — the graph being built, what each ONNX value name
// stands for (a graph value, or a constant known at import time), the opset — and the helpers
// every op converter uses to read inputs and attributes with errors that name the node.
#pragma once

#include <map>
#include <onnx/onnx_pb.h>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler/graph/graph.h"

namespace tunefarm::frontend::onnx {

using ::onnx::NodeProto;

// The largest constant the importer computes at import time (folded shapes, constant subgraphs):
// bigger ones stay nodes of the graph, so that a model cannot make the import allocate at will.
inline constexpr int64_t kMaxFoldedBytes = int64_t{1} << 20;

class ImportContext {
 public:
  explicit ImportContext(int64_t opset) : opset_(opset) {}

  int64_t opset() const { return opset_; }
  graph::Graph& graph() { return graph_; }
  graph::Graph TakeGraph() { return std::move(graph_); }

  // InvalidArgument "Conv node 'conv1' (opset 13): <message>".
  absl::Status Error(const NodeProto& node, const std::string& message) const;

  // Whether input `i` is given (ONNX leaves optional inputs out or names them "").
  bool HasInput(const NodeProto& node, int i) const;
  // Input `i` as a graph value; a constant becomes a graph constant on its first such use.
  absl::StatusOr<graph::ValueId> Input(const NodeProto& node, int i);
  // The type of input `i`, or an error when it has none (it is undefined).
  absl::StatusOr<graph::TensorType> InputType(const NodeProto& node, int i) const;
  // Input `i`'s value when it is known at import time, else null.
  const runtime::NDArray* ConstantInput(const NodeProto& node, int i) const;
  // A constant integer input as a list (a scalar is a list of one); an error names the input
  // when it is not an int32/int64 constant of rank 0 or 1.
  absl::StatusOr<std::vector<int64_t>> ConstantInts(const NodeProto& node, int i,
                                                    const char* what) const;
  // A constant scalar (or one-element) numeric input as a double.
  absl::StatusOr<double> ConstantScalar(const NodeProto& node, int i, const char* what) const;

  // Defines output `i` of `node`: as a graph value, or as a constant folded at import time.
  absl::Status DefineValue(const NodeProto& node, int i, graph::ValueId value);
  // Defines `name` (a graph input) as `value`.
  absl::Status Define(const std::string& name, graph::ValueId value);
  absl::Status DefineConstant(const std::string& name, runtime::NDArray value);
  // Adds `op` over `inputs` and defines the node's outputs as its results. An op of constant
  // inputs with integer outputs (shape arithmetic: Shape -> Gather -> Mul -> Concat -> Reshape)
  // is evaluated instead, its outputs defined as constants, so that the ops reading shapes from
  // inputs see them at import time.
  absl::Status Emit(const NodeProto& node, graph::OpKind op, graph::Attributes attrs,
                    std::vector<graph::ValueId> inputs);
  // The name of a part of what `node` becomes: the node's name (its first output's when it has
  // none, which is unique in the graph where names may not be) and `suffix`.
  static std::string PartName(const NodeProto& node, const std::string& suffix);
  // A rank-0 array of `dtype` (float32/64, int8-64, uint8) holding `value`; InvalidArgument for
  // another dtype.
  static absl::StatusOr<runtime::NDArray> ScalarArray(DLDataType dtype, double value);
  // ScalarArray as a graph constant named PartName(node, suffix); errors name the node.
  absl::StatusOr<graph::ValueId> AddScalar(const NodeProto& node, const std::string& suffix,
                                           DLDataType dtype, double value);
  // One op of the several that `node` becomes (named PartName(node, suffix)); its one output. Its
  // errors name the node.
  absl::StatusOr<graph::ValueId> EmitInner(const NodeProto& node, graph::OpKind op,
                                           const std::string& suffix, graph::Attributes attrs,
                                           std::vector<graph::ValueId> inputs);
  // The value that `name` stands for, materializing a constant; nullopt when undefined.
  std::optional<graph::ValueId> Lookup(const std::string& name);

  // Attributes of `node`, `fallback` when absent; the wrong kind is an error naming it.
  absl::StatusOr<int64_t> AttrInt(const NodeProto& node, const std::string& name,
                                  int64_t fallback) const;
  absl::StatusOr<double> AttrFloat(const NodeProto& node, const std::string& name,
                                   double fallback) const;
  absl::StatusOr<std::string> AttrString(const NodeProto& node, const std::string& name,
                                         std::string fallback) const;
  absl::StatusOr<std::vector<int64_t>> AttrInts(const NodeProto& node, const std::string& name,
                                                std::vector<int64_t> fallback) const;
  bool HasAttr(const NodeProto& node, const std::string& name) const;

 private:
  // Whether `op` was folded into constants as Emit describes.
  absl::StatusOr<bool> FoldIntegerOp(const NodeProto& node, graph::OpKind op,
                                     const graph::Attributes& attrs,
                                     const std::vector<graph::ValueId>& inputs);
  const ::onnx::AttributeProto* FindAttr(const NodeProto& node, const std::string& name) const;

  int64_t opset_;
  graph::Graph graph_;
  std::map<std::string, graph::ValueId> values_;
  // Constants known at import time that no graph op has read as a tensor yet. Constants that
  // only parameterize ops (Reshape's shape) never enter the graph.
  std::map<std::string, runtime::NDArray> constants_;
};

}  // namespace tunefarm::frontend::onnx
