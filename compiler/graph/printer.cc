#include "compiler/graph/printer.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace tunefarm::graph {
namespace {

void PrintNode(const Graph& graph, const Node& node, std::string& out) {
  std::vector<std::string> results, operands, attrs, types;
  for (ValueId id : node.outputs) {
    results.push_back(ValueRef(graph, id));
    types.push_back(graph.value(id).type.ToString());
  }
  for (ValueId id : node.inputs) operands.push_back(ValueRef(graph, id));
  for (const auto& [name, value] : node.attrs.values()) {
    attrs.push_back(absl::StrCat(name, "=", AttrValueToString(value)));
  }
  // After fusion each line starts with its kernel: "[g3] %12 = add(...)".
  absl::StrAppend(&out, "  ",
                  node.fused_group >= 0 ? absl::StrCat("[g", node.fused_group, "] ") : "",
                  absl::StrJoin(results, ", "), " = ", std::string(OpName(node.op)), "(",
                  absl::StrJoin(operands, ", "), ")");
  if (!attrs.empty()) absl::StrAppend(&out, " ", absl::StrJoin(attrs, " "));
  absl::StrAppend(&out, " : ", absl::StrJoin(types, ", "));
  if (!node.name.empty()) absl::StrAppend(&out, "  // ", node.name);
  out += "\n";
}

}  // namespace

std::string ValueRef(const Graph& graph, ValueId value) {
  if (value < 0 || value >= static_cast<ValueId>(graph.values().size())) {
    return absl::StrCat("%<bad ", value, ">");
  }
  const Value& v = graph.value(value);
  switch (v.kind) {
    case ValueKind::kInput:
      return absl::StrCat("%", v.name.empty() ? absl::StrCat(value) : v.name);
    case ValueKind::kConstant:
      return absl::StrCat("@", v.name.empty() ? absl::StrCat(value) : v.name);
    case ValueKind::kNodeOutput:
      break;
  }
  return absl::StrCat("%", value);
}

std::string ToString(const Graph& graph) {
  std::vector<std::string> params;
  for (ValueId id : graph.inputs()) {
    params.push_back(absl::StrCat(ValueRef(graph, id), ": ", graph.value(id).type.ToString()));
  }
  std::string out = absl::StrCat("graph(", absl::StrJoin(params, ", "), ") {\n");
  for (size_t i = 0; i < graph.values().size(); ++i) {
    const Value& v = graph.values()[i];
    if (v.kind != ValueKind::kConstant) continue;
    absl::StrAppend(&out, "  ", ValueRef(graph, static_cast<ValueId>(i)), ": ", v.type.ToString(),
                    "\n");
  }
  for (const Node& node : graph.nodes()) PrintNode(graph, node, out);
  std::vector<std::string> results;
  for (const GraphOutput& o : graph.outputs()) {
    results.push_back(absl::StrCat(o.name, "=", ValueRef(graph, o.value)));
  }
  absl::StrAppend(&out, "  return ", absl::StrJoin(results, ", "), "\n}\n");
  return out;
}

}  // namespace tunefarm::graph
