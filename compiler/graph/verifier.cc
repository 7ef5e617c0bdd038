#include "compiler/graph/verifier.h"

#include <algorithm>
#include <set>

#include "absl/strings/str_cat.h"
#include "compiler/graph/op_registry.h"
#include "compiler/graph/printer.h"
#include "runtime/data_type.h"

namespace tunefarm::graph {
namespace {

absl::Status Broken(const std::string& message) {
  return absl::FailedPreconditionError(absl::StrCat("graph verification: ", message));
}

std::string NodeLabel(const Graph& graph, size_t index) {
  const Node& node = graph.nodes()[index];
  return absl::StrCat("node ", index, " (", std::string(OpName(node.op)), " '", node.name, "')");
}

absl::Status VerifyValues(const Graph& graph) {
  std::set<std::string> names;
  const int32_t num_nodes = static_cast<int32_t>(graph.nodes().size());
  for (size_t i = 0; i < graph.values().size(); ++i) {
    const Value& v = graph.values()[i];
    ValueId id = static_cast<ValueId>(i);
    if (!v.name.empty() && !names.insert(v.name).second) {
      return Broken(absl::StrCat("value name '", v.name, "' is used twice"));
    }
    if (v.kind == ValueKind::kConstant) {
      const runtime::NDArray* data = graph.ConstantData(id);
      if (data == nullptr || !data->defined() || data->shape() != v.type.shape ||
          !runtime::SameDataType(data->dtype(), v.type.dtype)) {
        return Broken(absl::StrCat("constant ", ValueRef(graph, id), " does not match its data"));
      }
    }
    if (v.kind == ValueKind::kNodeOutput) {
      bool listed = v.index >= 0 && v.index < num_nodes;
      if (listed) {
        const std::vector<ValueId>& outs = graph.nodes()[v.index].outputs;
        listed = std::find(outs.begin(), outs.end(), id) != outs.end();
      }
      if (!listed) return Broken(absl::StrCat("value %", id, " has no producing node"));
    }
  }
  return absl::OkStatus();
}

absl::Status VerifyNode(const Graph& graph, size_t index) {
  const Node& node = graph.nodes()[index];
  const ValueId num_values = static_cast<ValueId>(graph.values().size());
  std::vector<TensorType> input_types;
  for (ValueId id : node.inputs) {
    if (id < 0 || id >= num_values) {
      return Broken(
          absl::StrCat(NodeLabel(graph, index), " reads %", id, ", which does not exist"));
    }
    const Value& v = graph.value(id);
    if (v.kind == ValueKind::kNodeOutput && v.index >= static_cast<int32_t>(index)) {
      return Broken(absl::StrCat(NodeLabel(graph, index), " reads ", ValueRef(graph, id),
                                 " before node ", v.index,
                                 " defines it (a cycle, or the nodes "
                                 "are out of order)"));
    }
    input_types.push_back(v.type);
  }
  for (ValueId id : node.outputs) {
    if (id < 0 || id >= num_values || graph.value(id).index != static_cast<int32_t>(index) ||
        graph.value(id).kind != ValueKind::kNodeOutput) {
      return Broken(absl::StrCat(NodeLabel(graph, index), " lists output %", id,
                                 ", which it does not produce"));
    }
  }
  absl::StatusOr<std::vector<TensorType>> inferred = InferOutputTypes(node, input_types);
  if (!inferred.ok()) return Broken(std::string(inferred.status().message()));
  if (inferred->size() != node.outputs.size()) {
    return Broken(absl::StrCat(NodeLabel(graph, index), " has ", node.outputs.size(),
                               " outputs; its op makes ", inferred->size()));
  }
  for (size_t i = 0; i < inferred->size(); ++i) {
    const TensorType& actual = graph.value(node.outputs[i]).type;
    if (!(actual == (*inferred)[i])) {
      return Broken(absl::StrCat(NodeLabel(graph, index), " output ", i, " is ", actual.ToString(),
                                 " but its inputs make it ", (*inferred)[i].ToString()));
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status VerifyGraph(const Graph& graph) {
  absl::Status s = VerifyValues(graph);
  if (!s.ok()) return s;
  std::set<std::string> node_names;
  for (size_t i = 0; i < graph.nodes().size(); ++i) {
    const std::string& name = graph.nodes()[i].name;
    if (!name.empty() && !node_names.insert(name).second) {
      return Broken(absl::StrCat("node name '", name, "' is used twice"));
    }
    s = VerifyNode(graph, i);
    if (!s.ok()) return s;
  }
  for (ValueId id : graph.inputs()) {
    if (id < 0 || id >= static_cast<ValueId>(graph.values().size()) ||
        graph.value(id).kind != ValueKind::kInput) {
      return Broken(absl::StrCat("graph input %", id, " is not an input value"));
    }
  }
  std::set<std::string> output_names;
  for (const GraphOutput& o : graph.outputs()) {
    if (o.name.empty() || !output_names.insert(o.name).second) {
      return Broken(absl::StrCat("graph output name '", o.name, "' is empty or used twice"));
    }
    if (o.value < 0 || o.value >= static_cast<ValueId>(graph.values().size())) {
      return Broken(absl::StrCat("graph output '", o.name, "' names no value"));
    }
  }
  return absl::OkStatus();
}

}  // namespace tunefarm::graph
