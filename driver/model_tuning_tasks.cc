#include "driver/model_tuning_tasks.h"

#include <algorithm>
#include <optional>
#include <utility>

#include "absl/strings/str_cat.h"
#include "compiler/graph/fusion.h"
#include "compiler/target/target_cpu.h"
#include "driver/model_records.h"

namespace tunefarm::driver {
namespace {

// The tasks whose records the build uses (or, for transforms, the layout choice weighs), with
// or without the layout tasks; `skipped` counts the others.
std::vector<tuner::ModelTask> BuildTasks(const graph::Graph& graph, const graph::FusionPlan& plan,
                                         tuner::TaskAlgorithms algorithms,
                                         const std::optional<topi::CpuInfo>& layouts,
                                         int& skipped) {
  std::vector<tuner::ModelTask> tasks;
  skipped = 0;
  for (tuner::ModelTask& mt : tuner::ExtractModelTasks(graph, plan, algorithms, layouts)) {
    if (!BuildAppliesRecordsOf(mt.workload) && mt.workload.template_name != "layout_transform") {
      ++skipped;
      continue;
    }
    tasks.push_back(std::move(mt));
  }
  return tasks;
}

}  // namespace

absl::StatusOr<ModelTuning> ModelTuningTasks(const ModelTuningRequest& o,
                                             const tuner::TuningRequest& budget,
                                             const target::Target& target) {
  // The tasks of the default layouts (no --db): their spaces hold every block size.
  ModelCompileOptions compile;
  compile.input_shapes = o.compile.input_shapes;
  compile.disabled_passes = o.compile.disabled_passes;
  absl::StatusOr<OptimizedModel> model = OptimizeModel(o.file, compile, target);
  if (!model.ok()) return model.status();
  const graph::FusionPlan plan = graph::PlanFusion(model->graph);
  // Both algorithms of a conv that can run either way, unless the build will not rewrite any.
  const bool winograd_off =
      std::find(compile.disabled_passes.begin(), compile.disabled_passes.end(), "winograd") !=
      compile.disabled_passes.end();
  const tuner::TaskAlgorithms algorithms =
      winograd_off ? tuner::TaskAlgorithms::kBuilt : tuner::TaskAlgorithms::kAll;
  std::optional<topi::CpuInfo> layouts;
  if (o.layouts != LayoutTuning::kOff && !target.is_gpu()) layouts = target::CpuInfoOf(target);
  int skipped = 0;
  std::vector<tuner::ModelTask> tasks =
      BuildTasks(model->graph, plan, algorithms, layouts, skipped);
  ModelTuning tuning;
  if (layouts) {
    const int64_t first_round = static_cast<int64_t>(tasks.size()) * budget.batch_size;
    if (o.layouts == LayoutTuning::kAuto && budget.trials < first_round) {
      tuning.layouts_line =
          absl::StrCat("layouts: the rule's channel blocks; tuning them too takes ", tasks.size(),
                       " tasks, and --trials ", budget.trials, " is short of one batch each (",
                       first_round, "); --layouts tunes them anyway");
      layouts.reset();
      tasks = BuildTasks(model->graph, plan, algorithms, layouts, skipped);
    } else {
      tuning.layouts_line = absl::StrCat(
          "layouts: every channel block each conv may get, and the transforms "
          "between them (",
          tasks.size(), " tasks",
          o.layouts == LayoutTuning::kOn ? "" : "; --no-layouts: the rule's blocks only", ")");
    }
  } else if (!target.is_gpu()) {
    tuning.layouts_line = "layouts: the rule's channel blocks (--no-layouts)";
  }
  if (tasks.empty()) {
    return absl::FailedPreconditionError(
        absl::StrCat(o.file, " has no kernel a tuning template covers (", skipped,
                     " tasks of templates the build does not configure yet)"));
  }
  if (layouts) tuning.layout = tuner::ExtractLayoutChoice(model->graph, plan, tasks, *layouts);
  tuning.tasks = std::move(tasks);
  return tuning;
}

}  // namespace tunefarm::driver
