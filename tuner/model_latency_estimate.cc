#include "tuner/model_latency_estimate.h"

#include <limits>
#include <map>
#include <set>

namespace tunefarm::tuner {

std::vector<bool> ChosenAlternatives(const std::vector<TaskBest>& tasks) {
  std::vector<bool> chosen(tasks.size(), false);
  std::map<int, size_t> fastest;  // layer -> its fastest task so far
  for (size_t i = 0; i < tasks.size(); ++i) {
    if (tasks[i].best_seconds <= 0) continue;
    if (tasks[i].layer < 0) {
      chosen[i] = true;
      continue;
    }
    auto [at, first] = fastest.try_emplace(tasks[i].layer, i);
    if (!first && tasks[i].best_seconds < tasks[at->second].best_seconds) at->second = i;
  }
  for (const auto& [layer, i] : fastest) chosen[i] = true;
  return chosen;
}

std::optional<double> EstimatedModelSeconds(const std::vector<TaskBest>& tasks) {
  const std::vector<bool> chosen = ChosenAlternatives(tasks);
  std::map<int, bool> layer_has_time;
  double total = 0;
  for (size_t i = 0; i < tasks.size(); ++i) {
    if (tasks[i].layer < 0) {
      if (!chosen[i]) return std::nullopt;
    } else {
      layer_has_time[tasks[i].layer] = layer_has_time[tasks[i].layer] || chosen[i];
    }
    if (chosen[i]) total += tasks[i].weight * tasks[i].best_seconds;
  }
  for (const auto& [layer, has_time] : layer_has_time) {
    if (!has_time) return std::nullopt;
  }
  return total;
}

bool FollowsLayout(const LayoutChoice& layout, size_t tasks) {
  return !layout.empty() && tasks <= static_cast<size_t>(std::numeric_limits<int>::max()) &&
         ValidateLayoutChoice(layout, static_cast<int>(tasks)).ok();
}

std::vector<bool> OutsideTheLayout(const std::vector<TaskBest>& tasks, const LayoutChoice& layout) {
  std::vector<bool> in_layout(tasks.size(), false);
  std::set<int> decided;  // layers with a task of the layout
  for (const LayoutUse& use : layout.uses) {
    in_layout[use.task] = true;
    if (tasks[use.task].layer >= 0) decided.insert(tasks[use.task].layer);
  }
  std::vector<bool> outside(tasks.size(), false);
  for (size_t i = 0; i < tasks.size(); ++i) {
    outside[i] = !in_layout[i] && (tasks[i].weight == 0 || decided.contains(tasks[i].layer));
  }
  return outside;
}

ModelEstimate EstimateModel(const std::vector<TaskBest>& tasks, const LayoutChoice& layout) {
  ModelEstimate e;
  e.runs.assign(tasks.size(), 0);
  const bool follows = FollowsLayout(layout, tasks.size());
  std::vector<bool> in_layout(tasks.size(), false);
  std::vector<bool> outside(tasks.size(), false);
  if (follows) {
    for (const LayoutUse& use : layout.uses) in_layout[use.task] = true;
    outside = OutsideTheLayout(tasks, layout);
  }
  // The other tasks by layer, as EstimatedModelSeconds counts them.
  std::vector<TaskBest> by_layer;
  std::vector<size_t> index;
  for (size_t i = 0; i < tasks.size(); ++i) {
    if (in_layout[i] || outside[i]) continue;
    by_layer.push_back(tasks[i]);
    index.push_back(i);
  }
  const std::vector<bool> chosen = ChosenAlternatives(by_layer);
  for (size_t k = 0; k < by_layer.size(); ++k) {
    if (chosen[k]) e.runs[index[k]] = by_layer[k].weight;
  }
  std::optional<double> seconds = by_layer.empty() ? 0.0 : EstimatedModelSeconds(by_layer);
  if (follows) {
    std::vector<double> bests;
    for (const TaskBest& t : tasks) bests.push_back(t.best_seconds);
    std::vector<int> sites;
    const LayoutCost cost =
        CostOfAssignment(layout, ChooseBlocks(layout, bests).blocks, bests, &sites);
    for (size_t i = 0; i < tasks.size(); ++i) {
      if (in_layout[i]) e.runs[i] = sites[i];
    }
    if (cost.unmeasured > 0) seconds.reset();
    if (seconds) *seconds += cost.seconds;
  }
  e.seconds = seconds;
  return e;
}

}  // namespace tunefarm::tuner
