#include "tools/commands/model_info_command.h"

#include <algorithm>
#include <cstdio>
#include <optional>
#include <vector>

#include "absl/strings/str_join.h"
#include "compiler/frontend/onnx/onnx_importer.h"
#include "compiler/graph/fusion.h"
#include "compiler/graph/graph_pipeline.h"
#include "compiler/graph/graph_stats.h"
#include "compiler/topi/cpu_info.h"
#include "tuner/model_tasks.h"

namespace tunefarm::tools {
namespace {

// "3.64 G", "11.7 M", "980 k", "12".
std::string Human(double v) {
  static constexpr const char* kUnits[] = {"", " k", " M", " G", " T"};
  int unit = 0;
  while (v >= 1000 && unit < 4) {
    v /= 1000;
    ++unit;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, unit == 0 ? "%.0f%s" : "%.3g%s", v, kUnits[unit]);
  return buf;
}

}  // namespace

int RunModelInfoCommand(const ModelInfoOptions& options, std::ostream& out, std::ostream& err) {
  frontend::onnx::OnnxImportOptions import_options;
  import_options.input_shapes = options.input_shapes;
  absl::StatusOr<graph::Graph> g = frontend::onnx::ImportOnnxFile(options.file, import_options);
  if (!g.ok()) {
    std::string message(g.status().message());
    std::replace(message.begin(), message.end(), '\n', ' ');
    err << "tunefarm: " << message << "\n";
    return 1;
  }
  out << "model: " << options.file << "\n";
  out << "inputs:\n";
  for (graph::ValueId id : g->inputs()) {
    out << "  " << g->value(id).name << ": " << g->value(id).type.ToString() << "\n";
  }
  out << "outputs:\n";
  for (const graph::GraphOutput& o : g->outputs()) {
    out << "  " << o.name << ": " << g->value(o.value).type.ToString() << "\n";
  }
  graph::GraphStats stats = graph::ComputeGraphStats(*g);
  std::vector<std::pair<std::string, int64_t>> ops(stats.op_counts.begin(), stats.op_counts.end());
  std::stable_sort(ops.begin(), ops.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  out << "ops: " << g->nodes().size() << " nodes\n";
  for (const auto& [name, count] : ops) out << "  " << name << " " << count << "\n";
  out << "parameters: " << stats.parameters << " (" << Human(stats.parameters) << "), "
      << stats.parameter_bytes << " bytes (" << Human(stats.parameter_bytes) << "B)\n";
  out << "flops: " << stats.flops << " (" << Human(stats.flops)
      << "; conv2d, gemm and matmul multiply-adds x 2)\n";
  // The kernels a build makes, and the tuning tasks among them.
  absl::StatusOr<graph::Graph> optimized = graph::RunGraphPasses(
      *std::move(g), graph::DefaultGraphPasses(graph::KernelTarget::Host()), passes::PassOptions());
  if (!optimized.ok()) {
    err << "tunefarm: graph passes: " << optimized.status().message() << "\n";
    return 1;
  }
  const graph::FusionPlan plan = graph::PlanFusion(*optimized);
  const std::vector<tuner::ModelTask> tasks = tuner::ExtractModelTasks(*optimized, plan);
  out << "fused groups: " << plan.groups.size() << " kernels, " << tasks.size()
      << " tuning tasks\n";
  for (size_t i = 0; i < plan.groups.size(); ++i) {
    const graph::FusedGroup& group = plan.groups[i];
    std::vector<std::string> names;
    for (int n : group.nodes) names.emplace_back(graph::OpName(optimized->nodes()[n].op));
    out << "  group " << i << " [" << absl::StrJoin(names, "+") << "]";
    std::optional<tuner::Workload> w = tuner::AnchorWorkload(*optimized, group);
    if (w) out << " task " << w->Key();
    out << "\n";
  }
  out << "tuning tasks:\n";
  for (const tuner::ModelTask& t : tasks) {
    out << "  " << t.workload.Key() << " (" << t.groups.size() << " groups)\n";
  }
  return 0;
}

}  // namespace tunefarm::tools
