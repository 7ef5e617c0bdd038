#include "tools/commands/model_passes_command.h"

#include <iomanip>

#include "compiler/frontend/onnx/onnx_importer.h"
#include "compiler/graph/fusion.h"
#include "compiler/graph/graph_pipeline.h"
#include "compiler/graph/printer.h"
#include "compiler/topi/cpu_info.h"

namespace tunefarm::tools {

int RunModelPassesCommand(const ModelPassesOptions& options, std::ostream& out, std::ostream& err) {
  const std::vector<graph::GraphPass> passes =
      graph::DefaultGraphPasses(graph::KernelTarget::Host());
  if (absl::Status s = graph::CheckDisabledPasses(passes, options.disable); !s.ok()) {
    err << "tunefarm: --disable: " << s.message() << "\n";
    return 2;
  }
  frontend::onnx::OnnxImportOptions import_options;
  import_options.input_shapes = options.input_shapes;
  absl::StatusOr<graph::Graph> imported =
      frontend::onnx::ImportOnnxFile(options.file, import_options);
  if (!imported.ok()) {
    err << "tunefarm: " << imported.status().message() << "\n";
    return 1;
  }
  out << "== imported\n" << graph::ToString(*imported);
  passes::PassOptions pass_options;
  pass_options.disabled_passes = options.disable;
  absl::StatusOr<graph::Graph> result = graph::RunGraphPasses(
      *std::move(imported), passes, pass_options,
      [&](std::string_view pass, const graph::Graph& after, double ms) {
        out << "== after " << pass << " (" << std::fixed << std::setprecision(1) << ms << " ms, "
            << after.nodes().size() << " nodes)\n"
            << graph::ToString(after);
      });
  if (!result.ok()) {
    err << "tunefarm: " << result.status().message() << "\n";
    return result.status().code() == absl::StatusCode::kInvalidArgument ? 2 : 1;
  }
  const graph::FusionPlan plan = graph::PlanFusion(*result);
  out << "== " << plan.groups.size() << " fused groups for " << result->nodes().size() << " nodes\n"
      << graph::DescribeFusion(*result, plan);
  return 0;
}

}  // namespace tunefarm::tools
