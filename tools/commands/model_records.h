// The schedules a records database holds for a model's kernels (`tunefarm model build --db DB
// --device-key K`): for each fused group whose anchor is a tuning task (tuner/model_tasks.h), the
// best record of its workload for the target and device key, as the anchor template's config;
// and, before that, each 3x3 stride-1 conv's algorithm (direct or Winograd) by its records.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler/graph/graph.h"
#include "compiler/graph/group_kernel.h"
#include "compiler/graph/winograd_rewrite.h"
#include "compiler/topi/cpu_info.h"
#include "tuner/workload.h"

namespace tunefarm::tools {

// Whether a model build configures the task's kernels from its records: the conv templates do;
// gemm kernels keep their default schedule (no template of theirs to configure yet).
bool BuildAppliesRecordsOf(const tuner::Workload& workload);

struct TunedGroups {
  std::map<int, graph::AnchorConfig> configs;  // by group index (PlanFusion's order)
  std::vector<std::string> found;    // "conv2d:...: 0.412 ms (4 groups)": each task's record
  std::vector<std::string> missing;  // workload keys without a record: default configs
};

// Errors: the database cannot be opened; a record whose config does not fit its template's space
// (a database from another compiler) is InvalidArgument naming the workload.
absl::StatusOr<TunedGroups> TunedConfigsFromRecords(const graph::Graph& fused,
                                                    const std::string& db,
                                                    const std::string& target,
                                                    const std::string& device_key,
                                                    const topi::CpuInfo& cpu);

// The winograd pass's choice for `model build --db`: for a conv with ok records of both its
// conv2d_nchwc and conv2d_winograd_nchwc workloads on (target, device key), the faster best (the
// Winograd record's tile); otherwise graph::DefaultWinogradTile, with the tile of the Winograd
// records' best where the rule picks Winograd and there are some. Errors: the database cannot be
// opened; when the pass asks, a record that fits no template (InvalidArgument naming it).
absl::StatusOr<graph::WinogradChooser> WinogradChoiceFromRecords(const std::string& db,
                                                                 const std::string& target,
                                                                 const std::string& device_key,
                                                                 const topi::CpuInfo& cpu);

}  // namespace tunefarm::tools
