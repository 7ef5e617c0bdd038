// ScheduleNode: the shared state behind a Schedule handle — the stages, their order and the
// sticky error. Internal to compiler/schedule.
#pragma once

#include <memory>
#include <unordered_map>
#include <vector>

#include "compiler/schedule/schedule.h"

namespace tunefarm::schedule {

class ScheduleNode {
 public:
  std::vector<te::Operation> outputs;
  // Stages in producer-before-consumer order; unique_ptr keeps Stage& stable as stages are added.
  std::vector<std::unique_ptr<Stage>> stages;
  // Keyed by the original operation of each stage (what user-held tensors point to).
  std::unordered_map<const te::OperationNode*, Stage*> stage_of_origin;
  absl::Status error;

  Stage* Find(const te::OperationNode* origin) const;
  // Inserts a stage right after `after` (or at the front when null) in the order.
  Stage* AddStage(te::Operation op, const Stage* after);
  // The stages whose current operation reads `buffer`.
  std::vector<Stage*> ReadersOf(const ir::Buffer& buffer) const;
};

}  // namespace tunefarm::schedule
