// A model's latency as its tuning tasks' best times predict it: per layer, weight x the best time
// of the algorithm the build would run. A layer's alternative tasks (its direct and Winograd
// convolutions) count once: the build runs the faster of them, as TVM's op strategy picks the
// implementation with the best record.
#pragma once

#include <optional>
#include <vector>

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

}  // namespace tunefarm::tuner
