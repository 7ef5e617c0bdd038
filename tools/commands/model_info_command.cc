#include "tools/commands/model_info_command.h"

#include <algorithm>
#include <cstdio>
#include <vector>

#include "compiler/frontend/onnx/onnx_importer.h"
#include "compiler/graph/graph_stats.h"

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
  absl::StatusOr<graph::Graph> g = frontend::onnx::ImportOnnxFile(options.file);
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
  return 0;
}

}  // namespace tunefarm::tools
