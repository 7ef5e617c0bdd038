// The schedules a records database holds for a model's kernels (`tunefarm model build --db DB
// --device-key K`): for each fused group whose anchor is a tuning task (tuner/model_tasks.h), the
// best record of its workload for the target and device key, as the anchor template's config.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler/graph/graph.h"
#include "compiler/graph/group_kernel.h"
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

}  // namespace tunefarm::tools
