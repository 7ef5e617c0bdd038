// A model's latency as its tuning tasks' best times predict it: per layer, weight x the best time
// of the algorithm the build would run. A layer's alternative tasks (its direct and Winograd
// convolutions) count once: the build runs the faster of them, as TVM's op strategy picks the
// implementation with the best record. With a layout choice, its tasks (a conv's block pairs and
// the transforms between blocks) count as the layout chosen from the best times runs them.
#pragma once

#include <optional>
#include <vector>

#include "tuner/layout_choice.h"

namespace tunefarm::tuner {

struct TaskBest {
  int layer = -1;  // tasks with the same layer >= 0 are alternatives; -1: a layer of its own
  double weight = 1;
  double best_seconds = 0;  // 0: none yet
};

// For each task, whether the build would run it: in each layer, the alternative with the smallest
// best time (ties: the first); a layer without any time chooses none.
std::vector<bool> ChosenAlternatives(const std::vector<TaskBest>& tasks);

// The sum over layers of weight x the chosen alternative's time; nullopt while a layer has none.
std::optional<double> EstimatedModelSeconds(const std::vector<TaskBest>& tasks);

// What the build would run, per model run.
struct ModelEstimate {
  // Per task: how many times one model run runs it (a layer's chosen alternative: its weight; a
  // task of the layout choice: the sites its chosen blocks run it at); 0: the build would not.
  std::vector<double> runs;
  // The sum of runs x best time; nullopt while a layer, or a kernel the layout runs, has no time.
  std::optional<double> seconds;
};

// Whether the estimate and the scheduler follow `layout` for `tasks` tasks: a valid choice
// (ValidateLayoutChoice) with vars. Any other is no choice, and every task counts by its layer: a
// stored spec or a tracker's reply is not trusted to fit its tasks.
bool FollowsLayout(const LayoutChoice& layout, size_t tasks);

// Per task, whether the build never runs it under `layout` (one FollowsLayout accepts): no use
// names it, and either a use names another task of its layer (the layout decides that conv's
// block pair) or its weight is 0 (a transform between blocks that no add of the graph meets).
std::vector<bool> OutsideTheLayout(const std::vector<TaskBest>& tasks, const LayoutChoice& layout);

// As above, the tasks `layout` names costed by the blocks ChooseBlocks picks from their best
// times, those outside it not at all, the others by layer. The one estimate of the scheduler, the
// CLI's table and the tracker's model jobs.
ModelEstimate EstimateModel(const std::vector<TaskBest>& tasks, const LayoutChoice& layout);

}  // namespace tunefarm::tuner
