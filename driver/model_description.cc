#include "driver/model_description.h"

#include <algorithm>
#include <optional>

#include "absl/strings/str_cat.h"
#include "compiler/frontend/onnx/onnx_importer.h"
#include "compiler/graph/fusion.h"
#include "compiler/graph/graph_pipeline.h"
#include "compiler/graph/graph_stats.h"
#include "driver/model_records.h"

namespace tunefarm::driver {

absl::StatusOr<ModelDescription> DescribeModel(
    const std::string& onnx_path, const std::map<std::string, std::vector<int64_t>>& input_shapes) {
  frontend::onnx::OnnxImportOptions import_options;
  import_options.input_shapes = input_shapes;
  absl::StatusOr<graph::Graph> g = frontend::onnx::ImportOnnxFile(onnx_path, import_options);
  if (!g.ok()) return g.status();
  ModelDescription d;
  for (graph::ValueId id : g->inputs()) {
    d.inputs.push_back({g->value(id).name, g->value(id).type.ToString()});
  }
  for (const graph::GraphOutput& o : g->outputs()) {
    d.outputs.push_back({o.name, g->value(o.value).type.ToString()});
  }
  d.nodes = static_cast<int>(g->nodes().size());
  const graph::GraphStats stats = graph::ComputeGraphStats(*g);
  d.op_counts.assign(stats.op_counts.begin(), stats.op_counts.end());
  std::stable_sort(d.op_counts.begin(), d.op_counts.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  d.parameters = stats.parameters;
  d.parameter_bytes = stats.parameter_bytes;
  d.flops = stats.flops;

  absl::StatusOr<graph::Graph> optimized = graph::RunGraphPasses(
      *std::move(g), graph::DefaultGraphPasses(graph::KernelTarget::Host()), passes::PassOptions());
  if (!optimized.ok()) {
    return absl::Status(optimized.status().code(),
                        absl::StrCat("graph passes: ", optimized.status().message()));
  }
  const graph::FusionPlan plan = graph::PlanFusion(*optimized);
  for (const graph::FusedGroup& group : plan.groups) {
    ModelDescription::Group out;
    for (int n : group.nodes) out.ops.emplace_back(graph::OpName(optimized->nodes()[n].op));
    if (std::optional<tuner::Workload> w = tuner::AnchorWorkload(*optimized, group)) {
      out.workload_key = w->Key();
    }
    d.groups.push_back(std::move(out));
  }
  // As model tune extracts them (driver/model_tuning_tasks.h), at the rule's blocks.
  for (tuner::ModelTask& t :
       tuner::ExtractModelTasks(*optimized, plan, tuner::TaskAlgorithms::kAll)) {
    (BuildAppliesRecordsOf(t.workload) ? d.tasks : d.not_configured).push_back(std::move(t));
  }
  return d;
}

}  // namespace tunefarm::driver
