#include "compiler/graph/graph_rebuilder.h"

#include <utility>

namespace tunefarm::graph {

GraphRebuilder::GraphRebuilder(const Graph& source)
    : source_(source), map_(source.values().size(), -1) {
  for (ValueId input : source.inputs()) {
    const Value& v = source.value(input);
    map_[input] = graph_.AddInput(v.name, v.type);
  }
}

ValueId GraphRebuilder::Map(ValueId source_value) {
  ValueId& mapped = map_[source_value];
  if (mapped >= 0) return mapped;
  const Value& v = source_.value(source_value);
  if (v.kind == ValueKind::kConstant) {
    // A view over the same memory: weights are never copied by a pass.
    const runtime::NDArray& data = source_.constants()[v.index];
    absl::StatusOr<runtime::NDArray> shared = data.View(data.shape());
    if (shared.ok()) mapped = graph_.AddConstant(v.name, *std::move(shared));
  }
  return mapped;
}

void GraphRebuilder::Copy(const Node& node) {
  Node copy = node;
  for (ValueId& input : copy.inputs) input = Map(input);
  CopyAs(node, std::move(copy));
}

void GraphRebuilder::CopyAs(const Node& source, Node node) {
  std::vector<TensorType> types;
  std::vector<std::string> names;
  for (ValueId output : source.outputs) {
    types.push_back(source_.value(output).type);
    names.push_back(source_.value(output).name);
  }
  std::vector<ValueId> outputs = graph_.AddNode(std::move(node), std::move(types), names);
  for (size_t i = 0; i < outputs.size(); ++i) map_[source.outputs[i]] = outputs[i];
}

Graph GraphRebuilder::Finish() {
  for (const GraphOutput& output : source_.outputs()) {
    graph_.AddOutput(output.name, Map(output.value));
  }
  return std::move(graph_);
}

}  // namespace tunefarm::graph
