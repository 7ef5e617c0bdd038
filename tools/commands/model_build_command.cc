#include "tools/commands/model_build_command.h"

#include <filesystem>
#include <iomanip>

#include "compiler/codegen/llvm/llvm_target.h"
#include "driver/algorithm_race.h"
#include "driver/local_race_timer.h"
#include "runtime/core/thread_pool.h"
#include "runtime/graph/memory_plan.h"

namespace tunefarm::tools {
namespace {

double Megabytes(uint64_t bytes) { return static_cast<double>(bytes) / (1 << 20); }

}  // namespace

int RunModelBuildCommand(const ModelBuildOptions& options, std::ostream& out, std::ostream& err) {
  absl::StatusOr<target::Target> target = target::ParseTarget(options.target);
  if (!target.ok()) {
    err << "tunefarm: --target: " << target.status().message() << "\n";
    return 2;
  }
  driver::ModelCompileOptions compile = options.compile;
  if (options.race) {
    if (compile.db.empty()) {
      err << "tunefarm: --race needs --db and --device-key: the records name each conv's rivals\n";
      return 2;
    }
    if (target->is_gpu() || !target->llvm().is_host) {
      err << "tunefarm: --race times the model here: build for this machine (or race on the "
             "device through `model tune --tracker ... --output`)\n";
      return 2;
    }
    std::string error;
    if (options.threads > 0 && !runtime::SetNumThreads(options.threads, &error)) {
      err << "tunefarm: --threads: " << error << "\n";
      return 2;
    }
    driver::RaceOptions race;
    race.budget_s = options.race_seconds;
    absl::StatusOr<driver::RaceResult> raced = driver::RaceAlgorithms(
        options.file, compile, *target, driver::LocalRaceTimer(), race,
        [&out](const std::string& line) { out << line << "\n"
                                              << std::flush; });
    if (!raced.ok()) {
      err << "tunefarm: " << options.file << ": race: " << raced.status().message() << "\n";
      return 1;
    }
    out << "race: " << raced->challenges << " rivals timed in the model, " << raced->changed
        << " conv workloads changed algorithm\n";
    compile.algorithms = std::move(raced->algorithms);
  }
  absl::StatusOr<driver::CompiledModel> model =
      driver::CompileModel(options.file, compile, *target);
  if (!model.ok()) {
    err << "tunefarm: " << options.file << ": " << model.status().message() << "\n";
    return 1;
  }
  double export_ms = 0;
  if (absl::Status s = driver::ExportCompiledModel(*model, options.output, &export_ms); !s.ok()) {
    err << "tunefarm: " << options.output << ": " << s.message() << "\n";
    return 1;
  }
  const graph::BuiltModel& built = model->built;
  if (!options.compile.db.empty()) {
    out << "records in " << options.compile.db << " for device key '" << options.compile.device_key
        << "': " << model->tuned_tasks.size() << " tasks tuned, " << model->untuned_tasks.size()
        << " on default configs\n";
    for (const std::string& t : model->tuned_tasks) out << "  tuned " << t << "\n";
    for (const std::string& t : model->untuned_tasks) out << "  default " << t << "\n";
    if (model->layout) out << driver::DescribeLayout(*model->layout) << "\n";
  }
  out << std::fixed << std::setprecision(1);
  for (size_t i = 0; i < built.kernels.size(); ++i) {
    out << "kernel " << built.kernels[i].func.name << ": " << built.kernels[i].schedule << "\n";
  }
  uint64_t arena = 0, unplanned = 0;
  std::string error;
  runtime::GraphDescription parsed;
  if (runtime::ParseGraph(built.graph_text, built.params.size(), &parsed, &error)) {
    runtime::MemoryPlan plan;
    if (runtime::PlanMemory(runtime::ArenaBuffers(parsed), &plan, &error)) {
      arena = plan.stats.arena_bytes;
      unplanned = plan.stats.unplanned_bytes;
    }
  }
  std::error_code ec;
  const auto file_bytes = std::filesystem::file_size(options.output, ec);
  out << "wrote " << options.output << " (" << Megabytes(ec ? 0 : file_bytes)
      << " MiB): " << model->imported_nodes << " nodes in " << built.kernels.size()
      << " kernels, weights " << Megabytes(built.params.size()) << " MiB, arena "
      << Megabytes(arena) << " MiB (without "
      << "planning " << Megabytes(unplanned) << " MiB)\n"
      << "time: import " << model->import_ms << " ms, graph passes " << model->passes_ms
      << " ms, kernels " << model->kernels_ms << " ms, codegen and link " << export_ms << " ms\n";
  return 0;
}

}  // namespace tunefarm::tools
