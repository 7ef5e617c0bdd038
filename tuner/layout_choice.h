// A model's graph-level layout choice as a problem over its tuning tasks, without the graph: each
// blocked conv's output block is a variable, and each conv or residual add is a site that runs
// the task its neighbours' blocks select. The task scheduler solves it with the tasks' best times
// so far, to give trials to the kernels the build would run (the farm has no graph to rewrite);
// the build solves the same search over the real rewrite (driver/layout_plan.h).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace tunefarm::tuner {

// What a layout costs the model per run. Kernels without a record are counted, not guessed: a
// layout with fewer of them is cheaper, then the one of fewer seconds.
struct LayoutCost {
  int unmeasured = 0;
  double seconds = 0;  // of the measured ones
  bool operator<(const LayoutCost& other) const {
    if (unmeasured != other.unmeasured) return unmeasured < other.unmeasured;
    return seconds < other.seconds;
  }
};

// One conv's output block: its candidates, the rule's block, and its stage (its filter count:
// the convs of a residual stage want one block, so that their adds need no transform).
struct LayoutVar {
  int64_t rule = 0;
  std::vector<int64_t> candidates;
  int64_t stage = 0;
};

struct BlockCondition {
  int var = 0;
  int64_t block = 0;
};

// Task `task` runs at `site` when every condition holds (a conv: its own block and its
// producer's; a transform: the two sides' blocks of an add). Where several uses of one site hold
// (a conv's direct and Winograd algorithms), the site runs the fastest.
struct LayoutUse {
  int task = 0;
  int site = 0;
  std::vector<BlockCondition> when;
};

struct LayoutChoice {
  std::vector<LayoutVar> vars;
  // Per site: whether it always runs a kernel (a conv) or only where a use holds (a transform).
  std::vector<bool> site_required;
  std::vector<LayoutUse> uses;
  bool empty() const { return vars.empty(); }
};

// The result of a block search: every variable's block and what that costs.
struct BlockAssignment {
  std::vector<int64_t> blocks;
  LayoutCost cost;
  int evaluated = 0;  // assignments costed
};

// Records of one config drift 5 to 10 % between runs here; a move that saves less is as likely
// noise. One 0.6 % move, made on a record that flattered a kernel, cost ResNet-18 8 %.
inline constexpr double kMinLayoutMoveSaving = 0.01;

using AssignmentCost = std::function<absl::StatusOr<LayoutCost>(const std::vector<int64_t>&)>;

// A local search from `start`: a move is taken when it measures fewer sites as unmeasured, or as
// many and saves more than kMinLayoutMoveSaving of the time, until none does. The moves: every
// variable of one stage (in `stages`' order) to one of its candidates, then one variable at a
// time. Never worse than `start`. Errors: `cost`'s.
absl::StatusOr<BlockAssignment> SearchBlocks(const std::vector<std::vector<int64_t>>& candidates,
                                             const std::vector<int64_t>& start,
                                             const std::vector<std::vector<int>>& stages,
                                             const AssignmentCost& cost);

// What `blocks` costs with tasks at `best_seconds` (0: no record), and at how many sites it runs
// each task (`runs`, when not null, sized to best_seconds).
LayoutCost CostOfAssignment(const LayoutChoice& choice, const std::vector<int64_t>& blocks,
                            const std::vector<double>& best_seconds,
                            std::vector<int>* runs = nullptr);

// SearchBlocks from the rules, stages by filter count.
BlockAssignment ChooseBlocks(const LayoutChoice& choice, const std::vector<double>& best_seconds);

// InvalidArgument naming the first problem: a var without candidates or whose rule is not one, a
// use naming a task, site or var out of range or a block that is not its var's candidate, more
// than two conditions, or more vars, sites or uses than kMaxLayout* allow.
absl::Status ValidateLayoutChoice(const LayoutChoice& choice, int tasks);

inline constexpr int kMaxLayoutVars = 4096;
inline constexpr int kMaxLayoutSites = 8192;
inline constexpr int kMaxLayoutUses = 65536;

// Compact JSON (arrays of integers), for a model job's stored spec and its gRPC request.
std::string LayoutChoiceToJson(const LayoutChoice& choice);
// InvalidArgument on malformed JSON or counts over the limits (checked before anything of that
// size is built); ValidateLayoutChoice checks the rest.
absl::StatusOr<LayoutChoice> LayoutChoiceFromJson(std::string_view json);

}  // namespace tunefarm::tuner
