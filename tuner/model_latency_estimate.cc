#include "tuner/model_latency_estimate.h"

#include <map>

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

}  // namespace tunefarm::tuner
