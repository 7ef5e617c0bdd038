// What `tunefarm model build|run|test` share: an ONNX file through import, the graph passes and
// the build into a module, with the time of each phase; and a runnable executor from either an
// ONNX file (built into a temporary module) or a module file.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler/graph/model_build.h"
#include "compiler/target/target.h"
#include "driver/algorithm_choice.h"
#include "driver/layout_plan.h"
#include "driver/model_executor.h"
#include "runtime/ndarray.h"

namespace tunefarm::driver {

class ModelRecords;

struct ModelCompileOptions {
  std::map<std::string, std::vector<int64_t>> input_shapes;  // overrides, by input name
  // Inputs imported as constants; shared, so that the options copy (a race builds many times).
  std::map<std::string, std::shared_ptr<const runtime::NDArray>> constant_inputs;
  std::vector<std::string> disabled_passes;
  // Tuned schedules: the best records of the model's tasks in `db` for this target and device key.
  std::string db;
  std::string device_key;
  // With --db: a conv workload's algorithm (by its conv2d_nchwc key: Winograd's m, or 0 for the
  // direct conv) instead of the one its records choose; how `model build --race` builds a rival.
  std::map<std::string, int64_t> algorithms;
};

struct CompiledModel {
  graph::BuiltModel built;  // built.target: what it was built for
  int imported_nodes = 0;
  std::vector<std::string> tuned_tasks;     // tasks built with a record's config, and its time
  std::vector<std::string> untuned_tasks;   // tasks without a record: default configs
  std::optional<LayoutPlan> layout;         // with records: the blocks the layout pass took
  std::vector<AlgorithmChoice> algorithms;  // with records: the convs whose algorithm they chose
  double import_ms = 0, passes_ms = 0, kernels_ms = 0;
};

// A model imported and through the graph passes (with --db, each 3x3 stride-1 conv's algorithm
// from the records), ready to be fused into kernels: what `model build` builds and `model tune`
// tunes.
struct OptimizedModel {
  graph::Graph graph;
  graph::KernelTarget kernel_target;  // the target, parsed once here, and its CPU
  // With --db: the records the passes read, which the build reads on from (null without).
  std::shared_ptr<const ModelRecords> records;
  int imported_nodes = 0;
  double import_ms = 0, passes_ms = 0;
};

// Errors: what import or a pass says, prefixed by the phase ("import: ...").
absl::StatusOr<OptimizedModel> OptimizeModel(const std::string& onnx_path,
                                             const ModelCompileOptions& options,
                                             const target::Target& target);

// Errors: what import, a pass or the build says, prefixed by the phase ("import: ...").
absl::StatusOr<CompiledModel> CompileModel(const std::string& onnx_path,
                                           const ModelCompileOptions& options,
                                           const target::Target& target);

// Writes the module; `*export_ms` (when given) gets the time code generation and linking took.
absl::Status ExportCompiledModel(const CompiledModel& model, const std::string& path,
                                 double* export_ms = nullptr);

// An executor for `path`: a module file is loaded as it is (model_executor.h); an .onnx file is
// compiled for `target` into a temporary module first.
absl::StatusOr<std::unique_ptr<ModelExecutor>> LoadModelForRun(const std::string& path,
                                                               const ModelCompileOptions& options,
                                                               const target::Target& target);

// The --target of a command that builds and runs a model here (`model run`, `model test`):
// InvalidArgument for a bad string (the parser's message) or another machine's CPU.
absl::StatusOr<target::Target> ParseTargetToRunHere(const std::string& text);

// "data=1,3,224,224" into `shapes`. InvalidArgument naming the text otherwise.
absl::Status ParseInputShape(const std::string& text,
                             std::map<std::string, std::vector<int64_t>>* shapes);

}  // namespace tunefarm::driver
