// A model's tuning tasks: the kernels `model build --db` configures from records, with the layout
// tasks a graph-level channel-block choice needs; what local and farm model tuning (and the
// benchmarks) tune.
#pragma once

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler/target/target.h"
#include "driver/model_compiler.h"
#include "tuner/layout_choice.h"
#include "tuner/model_tasks.h"
#include "tuner/tuning_request.h"

namespace tunefarm::driver {

// `--layouts` (kOn), `--no-layouts` (kOff), or neither (kAuto): the layout tasks when the
// budget gives each of them a first batch. Each blocked conv then has up to four block pairs per
// algorithm (ResNet-18: 66 tasks instead of 15); a budget short of one batch each would leave
// some of the rule's own kernels unmeasured, and it ran no faster than the rule's blocks up to
// about that budget, faster beyond it (docs/models.md).
enum class LayoutTuning { kAuto, kOn, kOff };

// The model and how it is read for tuning.
struct ModelTuningRequest {
  std::string file;
  ModelCompileOptions compile;  // input shapes and disabled passes; no records
  LayoutTuning layouts = LayoutTuning::kAuto;
};

// The model's tuning tasks for its target: the distinct anchor workloads of its fused groups
// that `model build --db` configures from records, each with the groups that share it; a conv
// with two algorithms gives both (unless the winograd pass is disabled); with layout tasks
// (request.layouts), every block pair of each blocked conv and the layout transforms between
// blocks as well, and the layout choice those tasks serve (tuner::ExtractLayoutChoice), for the
// task scheduler. FailedPrecondition when it has none; import and pass errors as OptimizeModel
// gives them.
struct ModelTuning {
  std::vector<tuner::ModelTask> tasks;
  tuner::LayoutChoice layout;  // empty without layout tasks
  // What `layouts` came to, for the user: "layouts: ..." (empty for a GPU target).
  std::string layouts_line;
};
// The budget (tuning.trials and batch_size) decides kAuto: layout tasks are tuned only when each
// of them would get a first batch. `target` is tuning.target resolved.
absl::StatusOr<ModelTuning> ModelTuningTasks(const ModelTuningRequest& request,
                                             const tuner::TuningRequest& tuning,
                                             const target::Target& target);

}  // namespace tunefarm::driver
