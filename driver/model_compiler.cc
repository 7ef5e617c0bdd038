#include "driver/model_compiler.h"

#include <algorithm>
#include <chrono>
#include <optional>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "compiler/codegen/llvm/temp_dir.h"
#include "compiler/frontend/onnx/onnx_importer.h"
#include "compiler/graph/gpu_model_export.h"
#include "compiler/graph/graph_pipeline.h"
#include "driver/model_records.h"

namespace tunefarm::driver {
namespace {

double MillisecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

absl::Status InPhase(const char* phase, const absl::Status& status) {
  return absl::Status(status.code(), absl::StrCat(phase, ": ", status.message()));
}

bool EndsWith(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

absl::StatusOr<OptimizedModel> OptimizeModel(const std::string& onnx_path,
                                             const ModelCompileOptions& options,
                                             const target::Target& target) {
  if (options.db.empty() && !options.algorithms.empty()) {
    return absl::InvalidArgumentError(
        "records: a conv's algorithm is chosen over records: no --db");
  }
  OptimizedModel result;
  result.kernel_target = graph::KernelTarget::For(target);
  auto start = std::chrono::steady_clock::now();
  frontend::onnx::OnnxImportOptions import_options;
  import_options.input_shapes = options.input_shapes;
  for (const auto& [name, array] : options.constant_inputs) {
    absl::StatusOr<runtime::NDArray> view = array->View(array->shape());
    if (!view.ok()) return view.status();
    import_options.constant_inputs.emplace(name, *std::move(view));
  }
  absl::StatusOr<graph::Graph> imported = frontend::onnx::ImportOnnxFile(onnx_path, import_options);
  if (!imported.ok()) return InPhase("import", imported.status());
  result.imported_nodes = static_cast<int>(imported->nodes().size());
  result.import_ms = MillisecondsSince(start);
  start = std::chrono::steady_clock::now();
  passes::PassOptions pass_options;
  pass_options.disabled_passes = options.disabled_passes;
  graph::WinogradChooser winograd = graph::DefaultWinogradTile;
  graph::ConvBlockPlanner layout;
  if (!options.db.empty()) {
    absl::StatusOr<ModelRecords> records =
        ModelRecords::Open(options.db, result.kernel_target, options.device_key);
    if (!records.ok()) return InPhase("records", records.status());
    result.records = std::make_shared<const ModelRecords>(*std::move(records));
    winograd = result.records->WinogradChoice(options.algorithms);
    const bool winograd_on =
        std::find(options.disabled_passes.begin(), options.disabled_passes.end(), "winograd") ==
        options.disabled_passes.end();
    layout = result.records->LayoutChoice(winograd_on);
  }
  absl::StatusOr<graph::Graph> optimized = graph::RunGraphPasses(
      *std::move(imported),
      graph::DefaultGraphPasses(result.kernel_target, std::move(winograd), std::move(layout)),
      pass_options);
  if (!optimized.ok()) return InPhase("graph passes", optimized.status());
  result.graph = *std::move(optimized);
  result.passes_ms = MillisecondsSince(start);
  return result;
}

absl::StatusOr<CompiledModel> CompileModel(const std::string& onnx_path,
                                           const ModelCompileOptions& options,
                                           const target::Target& target) {
  absl::StatusOr<OptimizedModel> optimized = OptimizeModel(onnx_path, options, target);
  if (!optimized.ok()) return optimized.status();
  CompiledModel result;
  result.imported_nodes = optimized->imported_nodes;
  result.import_ms = optimized->import_ms;
  result.passes_ms = optimized->passes_ms;
  const auto start = std::chrono::steady_clock::now();
  std::map<int, graph::AnchorConfig> configs;
  if (optimized->records != nullptr) {
    result.layout = optimized->records->ChosenLayout();
    result.algorithms = optimized->records->AlgorithmChoices();
    absl::StatusOr<TunedGroups> tuned = optimized->records->TunedConfigs(optimized->graph);
    if (!tuned.ok()) return InPhase("records", tuned.status());
    configs = std::move(tuned->configs);
    result.tuned_tasks = std::move(tuned->found);
    result.untuned_tasks = std::move(tuned->missing);
  }
  absl::StatusOr<graph::BuiltModel> built =
      graph::BuildModel(optimized->graph, optimized->kernel_target, configs);
  if (!built.ok()) return InPhase("build", built.status());
  result.built = *std::move(built);
  result.kernels_ms = MillisecondsSince(start);
  return result;
}

absl::Status ExportCompiledModel(const CompiledModel& model, const std::string& path,
                                 double* export_ms) {
  auto start = std::chrono::steady_clock::now();
  // A GPU module's host part runs where the GPU is plugged in: this machine.
  const target::Target& target = model.built.target.target;
  absl::Status s = target.is_gpu() ? graph::ExportGpuModel(model.built, path)
                                   : graph::ExportModel(model.built, target.llvm(), path);
  if (!s.ok()) return InPhase("export", s);
  if (export_ms != nullptr) *export_ms = MillisecondsSince(start);
  return absl::OkStatus();
}

absl::StatusOr<target::Target> ParseTargetToRunHere(const std::string& text) {
  absl::StatusOr<target::Target> target = target::ParseTarget(text);
  if (!target.ok()) return target.status();
  if (!target->is_gpu() && !target->llvm().is_host) {
    return absl::InvalidArgumentError(
        absl::StrCat("'", text,
                     "' is not this machine: models run here; build for it with `tunefarm model "
                     "build --target`"));
  }
  return target;
}

absl::StatusOr<std::unique_ptr<ModelExecutor>> LoadModelForRun(const std::string& path,
                                                               const ModelCompileOptions& options,
                                                               const target::Target& target) {
  std::string module_path = path;
  std::optional<codegen::TempDir> dir;
  if (EndsWith(path, ".onnx")) {
    absl::StatusOr<CompiledModel> model = CompileModel(path, options, target);
    if (!model.ok()) return model.status();
    absl::StatusOr<codegen::TempDir> made = codegen::TempDir::Create("tunefarm-model");
    if (!made.ok()) return made.status();
    dir.emplace(*std::move(made));
    module_path = dir->path() + "/model.so";
    if (absl::Status s = ExportCompiledModel(*model, module_path); !s.ok()) return s;
  }
  // The library stays mapped after its temporary file is removed.
  return OpenModelModule(module_path);
}

absl::Status ParseInputShape(const std::string& text,
                             std::map<std::string, std::vector<int64_t>>* shapes) {
  const size_t eq = text.rfind('=');
  auto bad = [&] {
    return absl::InvalidArgumentError(
        absl::StrCat("--input-shape '", text, "': expected NAME=D1,D2,... (positive extents)"));
  };
  if (eq == std::string::npos || eq == 0 || eq + 1 == text.size()) return bad();
  std::vector<int64_t> dims;
  for (const std::string& d : std::vector<std::string>(absl::StrSplit(text.substr(eq + 1), ','))) {
    int64_t v = 0;
    if (!absl::SimpleAtoi(d, &v) || v <= 0) return bad();
    dims.push_back(v);
  }
  (*shapes)[text.substr(0, eq)] = dims;
  return absl::OkStatus();
}

}  // namespace tunefarm::driver
