#include "compiler/frontend/onnx/onnx_importer.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <google/protobuf/io/coded_stream.h>
#include <onnx/onnx_pb.h>
#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "compiler/frontend/onnx/converters.h"
#include "compiler/frontend/onnx/import_context.h"
#include "compiler/frontend/onnx/model_file.h"
#include "compiler/frontend/onnx/tensor_proto.h"
#include "compiler/frontend/onnx/topo_order.h"
#include "compiler/graph/verifier.h"

namespace tunefarm::frontend::onnx {
namespace {

using ::onnx::GraphProto;
using ::onnx::ModelProto;

constexpr int64_t kMinOpset = 1;
constexpr int64_t kMaxOpset = 21;

absl::StatusOr<int64_t> DefaultDomainOpset(const ModelProto& model) {
  for (const auto& o : model.opset_import()) {
    if (!o.domain().empty() && o.domain() != "ai.onnx") continue;
    if (o.version() < kMinOpset || o.version() > kMaxOpset) {
      return absl::UnimplementedError(absl::StrCat("the model uses opset ", o.version(),
                                                   "; opsets ", kMinOpset, " to ", kMaxOpset,
                                                   " are supported"));
    }
    return o.version();
  }
  if (model.opset_import_size() > 0) {
    // Only other domains (training ops, a vendor's): nothing here can run it.
    std::string domains;
    for (const auto& o : model.opset_import()) {
      absl::StrAppend(&domains, domains.empty() ? "" : ", ", "'", o.domain(), "'");
    }
    return absl::UnimplementedError(
        absl::StrCat("the model imports only the domains ", domains, ", not the default one"));
  }
  return absl::InvalidArgumentError("the model imports no opset of the default ONNX domain");
}

// Every node the importer cannot take, in one message.
absl::Status CheckSupported(const GraphProto& graph, int64_t opset) {
  std::vector<std::string> problems;
  for (const auto& node : graph.node()) {
    std::string reason = UnsupportedReason(node, opset);
    if (!reason.empty()) {
      problems.push_back(absl::StrCat(node.op_type(), " '", node.name(), "' (", reason, ")"));
    }
  }
  if (!graph.sparse_initializer().empty()) problems.push_back("sparse initializers");
  if (problems.empty()) return absl::OkStatus();
  return absl::UnimplementedError(
      absl::StrCat("the model (opset ", opset, ") has ", problems.size(),
                   " unsupported nodes: ", absl::StrJoin(problems, "; ")));
}

absl::Status ImportInitializers(GraphProto& graph, ImportContext& ctx) {
  for (auto& init : *graph.mutable_initializer()) {
    if (init.name().empty()) return absl::InvalidArgumentError("an initializer has no name");
    absl::StatusOr<runtime::NDArray> array =
        ArrayFromTensorProto(init, absl::StrCat("initializer '", init.name(), "'"));
    if (!array.ok()) return array.status();
    // The copy is made: release the file's bytes as we go, or a large model is held twice.
    std::string().swap(*init.mutable_raw_data());
    absl::Status s = ctx.DefineConstant(init.name(), *std::move(array));
    if (!s.ok()) return s;
  }
  return absl::OkStatus();
}

absl::StatusOr<graph::TensorType> InputType(const ::onnx::ValueInfoProto& input,
                                            const OnnxImportOptions& options) {
  const std::string what = absl::StrCat("graph input '", input.name(), "'");
  if (!input.type().has_tensor_type()) {
    return absl::UnimplementedError(what + " is not a tensor");
  }
  const auto& tensor = input.type().tensor_type();
  absl::StatusOr<DLDataType> dtype = DataTypeFromOnnx(tensor.elem_type());
  if (!dtype.ok())
    return absl::Status(dtype.status().code(), absl::StrCat(what, ": ", dtype.status().message()));
  graph::TensorType type{*dtype, {}};
  auto given = options.input_shapes.find(input.name());
  if (given != options.input_shapes.end()) {
    type.shape = given->second;
  } else {
    if (!tensor.has_shape()) return absl::InvalidArgumentError(what + " has no shape; give one");
    for (const auto& dim : tensor.shape().dim()) {
      if (!dim.has_dim_value()) {
        return absl::InvalidArgumentError(absl::StrCat(what, " has the symbolic dimension '",
                                                       dim.dim_param(), "'; give its shape"));
      }
      type.shape.push_back(dim.dim_value());
    }
  }
  absl::StatusOr<int64_t> n = type.NumElements();
  if (!n.ok()) return absl::InvalidArgumentError(absl::StrCat(what, ": ", n.status().message()));
  return type;
}

absl::Status ImportInputs(const GraphProto& graph, const std::set<std::string>& initializers,
                          const OnnxImportOptions& options, ImportContext& ctx) {
  // A shape for a name the model does not take is a typo, not something to ignore.
  std::vector<std::string> names;
  for (const auto& input : graph.input()) {
    if (!initializers.count(input.name())) names.push_back(input.name());
  }
  for (const auto& [name, shape] : options.input_shapes) {
    if (std::find(names.begin(), names.end(), name) == names.end()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "a shape is given for '", name.substr(0, 80),
          "', which is not an input of the model (its inputs: ", absl::StrJoin(names, ", "), ")"));
    }
  }
  for (const auto& input : graph.input()) {
    // Before IR version 4 initializers are listed as inputs too; they stay constants.
    if (initializers.count(input.name())) continue;
    auto bound = options.constant_inputs.find(input.name());
    if (bound != options.constant_inputs.end()) {
      absl::StatusOr<runtime::NDArray> copy = bound->second.Clone();
      if (!copy.ok()) return copy.status();
      absl::Status s = ctx.DefineConstant(input.name(), *std::move(copy));
      if (!s.ok()) return s;
      continue;
    }
    absl::StatusOr<graph::TensorType> type = InputType(input, options);
    if (!type.ok()) return type.status();
    absl::Status s = ctx.Define(input.name(), ctx.graph().AddInput(input.name(), *type));
    if (!s.ok()) return s;
  }
  return absl::OkStatus();
}

absl::StatusOr<graph::Graph> ImportModel(ModelProto& model, const OnnxImportOptions& options) {
  absl::StatusOr<int64_t> opset = DefaultDomainOpset(model);
  if (!opset.ok()) return opset.status();
  GraphProto& g = *model.mutable_graph();
  absl::Status s = CheckSupported(g, *opset);
  if (!s.ok()) return s;

  std::set<std::string> initializers, defined;
  for (const auto& init : g.initializer()) initializers.insert(init.name());
  defined = initializers;
  for (const auto& input : g.input()) defined.insert(input.name());
  absl::StatusOr<std::vector<int>> order = TopologicalOrder(g, defined);
  if (!order.ok()) return order.status();

  ImportContext ctx(*opset);
  s = ImportInitializers(g, ctx);
  if (s.ok()) s = ImportInputs(g, initializers, options, ctx);
  if (!s.ok()) return s;
  for (int i : *order) {
    const auto& node = g.node(i);
    // Every supported op's first output is required; converters read it unchecked.
    if (node.output_size() == 0 || node.output(0).empty()) {
      return absl::InvalidArgumentError(
          absl::StrCat(node.op_type(), " node '", node.name(), "' defines no output"));
    }
    s = FindConverter(node.op_type())->convert(ctx, node);
    if (!s.ok()) return s;
  }
  for (const auto& output : g.output()) {
    std::optional<graph::ValueId> id = ctx.Lookup(output.name());
    if (!id) {
      return absl::InvalidArgumentError(
          absl::StrCat("graph output '", output.name(), "' is not defined"));
    }
    ctx.graph().AddOutput(output.name(), *id);
  }
  graph::Graph result = ctx.TakeGraph();
  s = graph::VerifyGraph(result);
  if (!s.ok()) return s;
  return result;
}

}  // namespace

absl::StatusOr<graph::Graph> ImportOnnxBytes(std::string_view bytes,
                                             const OnnxImportOptions& options) {
  absl::StatusOr<ModelProto> model = ParseModel(bytes, options.max_file_bytes);
  if (!model.ok()) return model.status();
  return ImportModel(*model, options);
}

absl::StatusOr<std::vector<std::string>> ReadOnnxInputNames(const std::string& path,
                                                            int64_t max_file_bytes) {
  absl::StatusOr<std::string> bytes = ReadModelFile(path, max_file_bytes);
  if (!bytes.ok()) return bytes.status();
  absl::StatusOr<ModelProto> model = ParseModel(*bytes, max_file_bytes);
  if (!model.ok()) {
    return absl::Status(model.status().code(), absl::StrCat(path, ": ", model.status().message()));
  }
  std::set<std::string> initializers;
  for (const auto& init : model->graph().initializer()) initializers.insert(init.name());
  std::vector<std::string> names;
  for (const auto& in : model->graph().input()) {
    if (initializers.count(in.name())) continue;
    // A sequence, optional or map input has no tensor file to read; said before any is read.
    if (in.type().value_case() != ::onnx::TypeProto::kTensorType &&
        in.type().value_case() != ::onnx::TypeProto::VALUE_NOT_SET) {
      return absl::UnimplementedError(
          absl::StrCat(path, ": graph input '", in.name(), "' is not a tensor"));
    }
    names.push_back(in.name());
  }
  return names;
}

absl::StatusOr<std::set<std::string>> ReadOnnxParameterInputs(const std::string& path,
                                                              int64_t max_file_bytes) {
  absl::StatusOr<std::vector<std::string>> inputs = ReadOnnxInputNames(path, max_file_bytes);
  if (!inputs.ok()) return inputs.status();
  absl::StatusOr<std::string> bytes = ReadModelFile(path, max_file_bytes);
  if (!bytes.ok()) return bytes.status();
  absl::StatusOr<ModelProto> model = ParseModel(*bytes, max_file_bytes);
  if (!model.ok()) return model.status();
  // The first input of each op from which on every input is a parameter.
  static constexpr std::pair<std::string_view, int> kFirstParameter[] = {
      {"Reshape", 1},      {"Resize", 1},          {"Upsample", 1},  {"Pad", 1},
      {"Slice", 1},        {"Split", 1},           {"Squeeze", 1},   {"Unsqueeze", 1},
      {"Clip", 1},         {"Expand", 1},          {"Tile", 1},      {"Dropout", 1},
      {"ReduceSum", 1},    {"ReduceMean", 1},      {"ReduceMax", 1}, {"ReduceMin", 1},
      {"ReduceProd", 1},   {"ReduceL1", 1},        {"ReduceL2", 1},  {"ReduceSumSquare", 1},
      {"ReduceLogSum", 1}, {"ReduceLogSumExp", 1}, {"CumSum", 1},    {"ConstantOfShape", 0},
      {"Range", 0}};
  const std::set<std::string> graph_inputs(inputs->begin(), inputs->end());
  std::set<std::string> parameters;
  for (const auto& node : model->graph().node()) {
    for (const auto& [op, first] : kFirstParameter) {
      if (op != node.op_type()) continue;
      for (int i = first; i < node.input_size(); ++i) {
        if (graph_inputs.count(node.input(i))) parameters.insert(node.input(i));
      }
    }
  }
  return parameters;
}

absl::StatusOr<graph::Graph> ImportOnnxFile(const std::string& path,
                                            const OnnxImportOptions& options) {
  absl::StatusOr<std::string> bytes = ReadModelFile(path, options.max_file_bytes);
  if (!bytes.ok()) return bytes.status();
  absl::StatusOr<graph::Graph> g = ImportOnnxBytes(*bytes, options);
  if (!g.ok())
    return absl::Status(g.status().code(), absl::StrCat(path, ": ", g.status().message()));
  return g;
}

}  // namespace tunefarm::frontend::onnx
