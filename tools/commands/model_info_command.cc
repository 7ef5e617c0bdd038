#include "tools/commands/model_info_command.h"

#include <algorithm>
#include <cstdio>
#include <optional>
#include <vector>

#include "absl/strings/str_join.h"
#include "driver/model_description.h"

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
  absl::StatusOr<driver::ModelDescription> d =
      driver::DescribeModel(options.file, options.input_shapes);
  if (!d.ok()) {
    std::string message(d.status().message());
    std::replace(message.begin(), message.end(), '\n', ' ');
    err << "tunefarm: " << message << "\n";
    return 1;
  }
  out << "model: " << options.file << "\n";
  out << "inputs:\n";
  for (const auto& v : d->inputs) out << "  " << v.name << ": " << v.type << "\n";
  out << "outputs:\n";
  for (const auto& v : d->outputs) out << "  " << v.name << ": " << v.type << "\n";
  out << "ops: " << d->nodes << " nodes\n";
  for (const auto& [name, count] : d->op_counts) out << "  " << name << " " << count << "\n";
  out << "parameters: " << d->parameters << " (" << Human(d->parameters) << "), "
      << d->parameter_bytes << " bytes (" << Human(d->parameter_bytes) << "B)\n";
  out << "flops: " << d->flops << " (" << Human(d->flops)
      << "; conv2d, gemm and matmul multiply-adds x 2)\n";
  out << "fused groups: " << d->groups.size() << " kernels, " << d->tasks.size()
      << " tuning tasks\n";
  for (size_t i = 0; i < d->groups.size(); ++i) {
    const driver::ModelDescription::Group& group = d->groups[i];
    out << "  group " << i << " [" << absl::StrJoin(group.ops, "+") << "]";
    if (!group.workload_key.empty()) out << " task " << group.workload_key;
    out << "\n";
  }
  out << "tuning tasks (what model tune tunes and model build --db reads):\n";
  for (const tuner::ModelTask& t : d->tasks) {
    out << "  " << t.workload.Key() << " (" << t.groups.size() << " groups)\n";
  }
  if (!d->not_configured.empty()) {
    out << "not configured by records yet (the build runs their default schedules):\n";
    for (const tuner::ModelTask& t : d->not_configured) {
      out << "  " << t.workload.Key() << " (" << t.groups.size() << " groups)\n";
    }
  }
  return 0;
}

}  // namespace tunefarm::tools
