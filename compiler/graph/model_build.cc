#include "compiler/graph/model_build.h"

#include <cstring>
#include <map>

#include "absl/strings/str_cat.h"
#include "compiler/graph/fusion.h"
#include "compiler/graph/op_registry.h"
#include "runtime/core/c_abi.h"

namespace tunefarm::graph {
namespace {

// The graph's fused groups: FuseOps' plan when it ran, else every node on its own (an anchor op
// still gets its template).
FusionPlan GroupsOf(const Graph& graph) {
  for (const Node& node : graph.nodes()) {
    if (node.fused_group >= 0) return PlanFusion(graph);
  }
  FusionPlan plan;
  for (size_t n = 0; n < graph.nodes().size(); ++n) {
    const PatternKind kind = GetOpInfo(graph.nodes()[n].op).pattern;
    FusedGroup g;
    g.nodes = {static_cast<int>(n)};
    g.kind = kind;
    if (kind == PatternKind::kOutEWiseFusable || kind == PatternKind::kCommReduce) {
      g.anchor = static_cast<int>(n);
    }
    plan.group_of.push_back(static_cast<int>(plan.groups.size()));
    plan.groups.push_back(g);
  }
  return plan;
}

// Collects the executable graph: one tensor per graph value the kernels touch, inputs first (in
// the model's order), weights packed into the blob as the kernels first read them.
class GraphWriter {
 public:
  explicit GraphWriter(const Graph& graph) : graph_(graph) {
    for (ValueId in : graph.inputs()) {
      const Value& v = graph.value(in);
      Add(in, runtime::GraphTensorKind::kInput, v.name);
    }
    for (const GraphOutput& out : graph.outputs()) output_names_[out.value].push_back(out.name);
    // Every output's tensor next, in the model's order: the runtime numbers its outputs in the
    // order of their tensors, which must not be the order the kernels happen to write them.
    for (const GraphOutput& out : graph.outputs()) {
      const bool computed = graph.value(out.value).kind == ValueKind::kNodeOutput;
      if (computed && output_names_.at(out.value).front() == out.name) {
        Add(out.value, runtime::GraphTensorKind::kOutput, out.name);
      } else {
        copy_tensors_[{out.value, out.name}] =
            Add(out.value, runtime::GraphTensorKind::kOutput, out.name, /*remember=*/false);
      }
    }
  }

  absl::StatusOr<int64_t> TensorOf(ValueId value) {
    auto it = ids_.find(value);
    if (it != ids_.end()) return it->second;
    const Value& v = graph_.value(value);
    if (v.kind == ValueKind::kConstant) return AddParam(value);
    auto names = output_names_.find(value);
    if (names != output_names_.end() && v.kind == ValueKind::kNodeOutput) {
      return Add(value, runtime::GraphTensorKind::kOutput, names->second.front());
    }
    return Add(value, runtime::GraphTensorKind::kIntermediate, "");
  }

  void AddStep(const GroupKernel& kernel) {
    runtime::GraphStep step;
    step.kernel = kernel.func.name;
    for (ValueId in : kernel.inputs) {
      step.args.push_back({runtime::StepArgKind::kIn, *TensorOf(in), 0});
    }
    for (ValueId out : kernel.outputs) {
      step.args.push_back({runtime::StepArgKind::kOut, *TensorOf(out), 0});
    }
    description_.steps.push_back(std::move(step));
  }

  // The graph outputs no kernel writes under their name: a graph input or constant named as an
  // output (an identity model), or a second name of a value. Each gets a copy kernel.
  std::vector<std::pair<ValueId, std::string>> OutputsToCopy() const {
    std::vector<std::pair<ValueId, std::string>> copies;
    for (const GraphOutput& out : graph_.outputs()) {
      const bool computed = graph_.value(out.value).kind == ValueKind::kNodeOutput;
      if (!computed || output_names_.at(out.value).front() != out.name) {
        copies.emplace_back(out.value, out.name);
      }
    }
    return copies;
  }

  void AddCopyStep(const GroupKernel& kernel, ValueId value, const std::string& name) {
    runtime::GraphStep step;
    step.kernel = kernel.func.name;
    step.args.push_back({runtime::StepArgKind::kIn, *TensorOf(value), 0});
    step.args.push_back({runtime::StepArgKind::kOut, copy_tensors_.at({value, name}), 0});
    description_.steps.push_back(std::move(step));
  }

  runtime::GraphDescription Finish(std::string* params) {
    description_.params_bytes = params_.size();
    *params = std::move(params_);
    return std::move(description_);
  }

 private:
  // `remember`: later uses of `value` read this tensor.
  int64_t Add(ValueId value, runtime::GraphTensorKind kind, const std::string& name,
              bool remember = true) {
    const Value& v = graph_.value(value);
    runtime::GraphTensor t;
    t.dtype = v.type.dtype;
    t.shape = v.type.shape;
    t.kind = kind;
    t.name = name;
    const auto id = static_cast<int64_t>(description_.tensors.size());
    description_.tensors.push_back(std::move(t));
    if (remember) ids_[value] = id;
    return id;
  }

  int64_t AddParam(ValueId value) {
    const runtime::NDArray& data = *graph_.ConstantData(value);
    const size_t offset = (params_.size() + runtime::kParamAlignment - 1) /
                          runtime::kParamAlignment * runtime::kParamAlignment;
    params_.resize(offset + data.NumBytes(), '\0');
    if (data.NumBytes() > 0) std::memcpy(params_.data() + offset, data.data(), data.NumBytes());
    const int64_t id = Add(value, runtime::GraphTensorKind::kParam, "");
    description_.tensors[id].param_offset = offset;
    return id;
  }

  const Graph& graph_;
  std::map<ValueId, int64_t> ids_;
  std::map<ValueId, std::vector<std::string>> output_names_;
  std::map<std::pair<ValueId, std::string>, int64_t> copy_tensors_;  // outputs a copy writes
  runtime::GraphDescription description_;
  std::string params_;
};

}  // namespace

absl::StatusOr<BuiltModel> BuildModel(const Graph& graph, const KernelTarget& target,
                                      const std::map<int, AnchorConfig>& configs) {
  // The module format holds tensors of at least one element (graph_format.h).
  for (const Value& v : graph.values()) {
    for (int64_t d : v.type.shape) {
      if (d == 0) {
        return absl::UnimplementedError(
            absl::StrCat("value '", v.name, "' ", v.type.ToString(),
                         " has no elements: model modules hold no zero-size tensors"));
      }
    }
  }
  GraphWriter writer(graph);
  const FusionPlan plan = GroupsOf(graph);
  BuiltModel model;
  model.target = target;
  auto add_kernel = [&](const FusedGroup& group, const std::string& name,
                        const AnchorConfig& config) -> absl::Status {
    absl::StatusOr<GroupKernel> kernel = LowerGroup(graph, group, name, target, config);
    if (!kernel.ok()) return kernel.status();
    writer.AddStep(*kernel);
    model.kernels.push_back(*std::move(kernel));
    return absl::OkStatus();
  };
  for (size_t g = 0; g < plan.groups.size(); ++g) {
    const FusedGroup& group = plan.groups[g];
    const std::string name = GroupKernelName(graph, group, static_cast<int>(g));
    auto config = configs.find(static_cast<int>(g));
    absl::Status s =
        add_kernel(group, name, config == configs.end() ? AnchorConfig() : config->second);
    if (s.code() == absl::StatusCode::kUnimplemented && target.is_gpu() && group.nodes.size() > 1) {
      // Nodes of a group are in graph order, so each one's inputs are written before it runs.
      s = absl::OkStatus();
      for (size_t i = 0; i < group.nodes.size() && s.ok(); ++i) {
        FusedGroup single;
        single.nodes = {group.nodes[i]};
        single.kind = GetOpInfo(graph.nodes()[group.nodes[i]].op).pattern;
        single.anchor = group.nodes[i] == group.anchor ? group.anchor : -1;
        s = add_kernel(single, absl::StrCat(name, "_part", i), AnchorConfig());
      }
    }
    if (!s.ok()) return s;
  }
  std::map<std::string, int> copy_kernels;  // one copy kernel per tensor type
  for (const auto& [value, name] : writer.OutputsToCopy()) {
    const TensorType& type = graph.value(value).type;
    const std::string key = type.ToString();
    auto it = copy_kernels.find(key);
    if (it == copy_kernels.end()) {
      absl::StatusOr<GroupKernel> copy =
          LowerCopy(type, absl::StrCat("copy_", copy_kernels.size()), target);
      if (!copy.ok()) return copy.status();
      it = copy_kernels.emplace(key, static_cast<int>(model.kernels.size())).first;
      model.kernels.push_back(*std::move(copy));
    }
    writer.AddCopyStep(model.kernels[it->second], value, name);
  }
  model.graph = writer.Finish(&model.params);
  model.graph_text = runtime::WriteGraph(model.graph);
  // The runtime's parser is the judge of what a module may hold: a graph it would refuse is a
  // compiler bug, reported here rather than on the board.
  runtime::GraphDescription parsed;
  std::string error;
  if (!runtime::ParseGraph(model.graph_text, model.params.size(), &parsed, &error)) {
    return absl::InternalError(absl::StrCat("the built graph does not parse: ", error));
  }
  return model;
}

std::vector<codegen::DataSymbol> ModelDataSymbols(const BuiltModel& model,
                                                  std::string* size_bytes) {
  const uint64_t params_size = model.params.size();
  size_bytes->assign(sizeof(params_size), '\0');
  std::memcpy(size_bytes->data(), &params_size, sizeof(params_size));
  std::vector<codegen::DataSymbol> data = {
      // With its NUL: the runtime reads the graph as a C string.
      {TF_GRAPH_SYMBOL, std::string_view(model.graph_text.c_str(), model.graph_text.size() + 1), 8},
      {TF_PARAMS_SIZE_SYMBOL, *size_bytes, 8},
  };
  // An empty blob still needs an address: one zero byte, with its size still 0.
  static const char kEmpty[1] = {0};
  data.push_back(
      {TF_PARAMS_SYMBOL,
       model.params.empty() ? std::string_view(kEmpty, 1) : std::string_view(model.params),
       runtime::kParamAlignment});
  return data;
}

absl::Status ExportModel(const BuiltModel& model, const codegen::LlvmTarget& target,
                         const std::string& path) {
  if (model.target.is_gpu()) {
    return absl::FailedPreconditionError(
        "the model was built for a GPU: export it as a GPU model module (ExportGpuModel)");
  }
  std::vector<ir::PrimFunc> funcs;
  for (const GroupKernel& k : model.kernels) funcs.push_back(k.func);
  std::string size_bytes;
  return codegen::ExportLibrary(funcs, target, path, ModelDataSymbols(model, &size_bytes));
}

}  // namespace tunefarm::graph
