// The schedules a records database holds for a model's kernels (`tunefarm model build --db DB
// --device-key K`): for each fused group whose anchor is a tuning task (tuner/model_tasks.h), the
// best record of its workload for the target and device key, as the anchor template's config;
// and, before that, each 3x3 stride-1 conv's algorithm (direct or Winograd) by its records.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler/graph/graph.h"
#include "compiler/graph/group_kernel.h"
#include "compiler/graph/kernel_target.h"
#include "compiler/graph/layout_rewrite.h"
#include "compiler/graph/winograd_rewrite.h"
#include "compiler/topi/cpu_info.h"
#include "driver/algorithm_choice.h"
#include "driver/layout_plan.h"
#include "tuner/workload.h"

namespace tunefarm::driver {

// Whether a model build configures the task's kernels from its records: the conv templates and
// the int8 ones (conv2d_int8, dense_int8) do; float gemm kernels keep their default schedule (no
// template of theirs to configure yet).
bool BuildAppliesRecordsOf(const tuner::Workload& workload);

struct TunedGroups {
  std::map<int, graph::AnchorConfig> configs;  // by group index (PlanFusion's order)
  std::vector<std::string> found;    // "conv2d:...: 0.412 ms (4 groups)": each task's record
  std::vector<std::string> missing;  // workload keys without a record: default configs
};

// A records database read for one model build: each workload's ok records on (target, device
// key), parsed as its template's configs once however many convs share the workload or ask again
// (the winograd pass asks per conv, the build per task; a long tuning leaves thousands). Of a
// workload's records, those timed closest to how a layer runs in a model are used: with the
// weights evicted (model tuning's), else every cache flushed, else warm. Copies share what was
// read. Not thread-safe: one build uses it at a time.
class ModelRecords {
 public:
  // Records of `target`'s canonical string, read as configs of templates sized for its CPU.
  // Errors: the database cannot be opened.
  static absl::StatusOr<ModelRecords> Open(const std::string& db, const graph::KernelTarget& target,
                                           const std::string& device_key);

  // For each group of `fused` whose anchor is a task, its best record's config. A record whose
  // config fits no template (a database from another compiler) is InvalidArgument naming the
  // workload.
  absl::StatusOr<TunedGroups> TunedConfigs(const graph::Graph& fused) const;

  // The winograd pass's choice: for a conv with ok records of both its conv2d_nchwc and
  // conv2d_winograd_nchwc workloads timed alike, the faster best (the Winograd record's tile);
  // otherwise graph::DefaultWinogradTile, with the tile of the Winograd records' best where the
  // rule picks Winograd and there are some. `forced` (by conv2d_nchwc key: m, or 0 for direct)
  // overrides both. When the pass asks, a record that fits no template is InvalidArgument naming
  // it. The chooser shares this object's reads and logs each choice for AlgorithmChoices.
  graph::WinogradChooser WinogradChoice(std::map<std::string, int64_t> forced = {}) const;
  // The workloads WinogradChoice's chooser decided with records of both algorithms (or forced
  // where those exist), in the order the pass first asked.
  std::vector<AlgorithmChoice> AlgorithmChoices() const;

  // The layout pass's plan: PlanConvBlocks over the best records (of each workload, those timed
  // closest to a model; a layout transform's likewise). `winograd`: whether the build may run a
  // conv as Winograd (its pass is not disabled). The planner keeps what it chose for
  // ChosenLayout.
  graph::ConvBlockPlanner LayoutChoice(bool winograd) const;
  // The last plan LayoutChoice's planner made, if it ran.
  const std::optional<LayoutPlan>& ChosenLayout() const;

  struct Candidate;  // an ok record, its config read as the template's
  struct State;      // both defined in the .cc

 private:
  explicit ModelRecords(std::shared_ptr<State> state) : state_(std::move(state)) {}
  std::shared_ptr<State> state_;
};

}  // namespace tunefarm::driver
