// ScheduleGraph: a schedule readied for lowering — inlined stages substituted into their
// consumers, who reads whom, and where each stage is computed (its attach path).
#pragma once

#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler/schedule/schedule.h"

namespace tunefarm::schedule {

// A loop of `stage` (one of its leaf axes) that encloses another stage's computation.
struct AttachPoint {
  const Stage* stage;
  ir::IterVar leaf;
};

struct StageInfo {
  const Stage* stage = nullptr;
  ir::Expr body;  // the definition with inlined producers substituted (undefined: placeholder)
  std::vector<const StageInfo*> consumers;  // stages (not inlined) whose body reads this one
  std::vector<AttachPoint> attach_path;     // innermost enclosing loop first; empty at root
  bool is_output = false;                   // an output of the schedule: computed in full
};

struct ScheduleGraph {
  // Every stage that is not inlined, producers before consumers (placeholders included).
  std::vector<StageInfo> stages;
  const StageInfo* Find(const Stage* stage) const;
  // Stages attached at a leaf of `stage`, in producer-before-consumer order.
  std::vector<const StageInfo*> AttachedAt(const Stage* stage, const ir::IterVar& leaf) const;
};

// Errors: a stage computed (compute_at) outside the scope of one of its consumers, an inlined
// output, or the schedule's sticky error.
absl::StatusOr<ScheduleGraph> BuildScheduleGraph(const Schedule& schedule);

}  // namespace tunefarm::schedule
