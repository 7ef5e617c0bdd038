#include "tuner/task_scheduler.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "tuner/model_latency_estimate.h"

namespace tunefarm::tuner {

TaskScheduler::TaskScheduler(std::vector<ScheduledTask> tasks, TaskSchedulerOptions options,
                             LayoutChoice layout)
    : tasks_(std::move(tasks)),
      options_(options),
      state_(tasks_.size()),
      layout_(std::move(layout)),
      rng_(options.seed) {
  options_.window = std::max(1, options_.window);
  options_.epsilon = std::clamp(options_.epsilon, 0.0, 1.0);
  options_.alpha = std::clamp(options_.alpha, 0.0, 1.0);
  if (!FollowsLayout(layout_, tasks_.size())) layout_ = {};
  if (layout_.empty()) return;
  in_layout_.assign(tasks_.size(), false);
  for (const LayoutUse& use : layout_.uses) in_layout_[use.task] = true;
  std::vector<TaskBest> layers;
  for (const ScheduledTask& t : tasks_) layers.push_back({t.layer, t.weight, 0});
  outside_layout_ = OutsideTheLayout(layers, layout_);
  ChooseLayout();
}

void TaskScheduler::ChooseLayout() {
  if (layout_.empty()) return;
  std::vector<double> bests;
  for (const TaskState& s : state_) bests.push_back(s.best_seconds);
  const BlockAssignment chosen = ChooseBlocks(layout_, bests);
  CostOfAssignment(layout_, chosen.blocks, bests, &layout_runs_);
}

std::optional<int> TaskScheduler::Next(const std::vector<bool>& busy) {
  auto is_open = [&](int i) {
    return !state_[i].finished && !(static_cast<size_t>(i) < busy.size() && busy[i]);
  };
  std::vector<int> open;
  for (int i = 0; i < size(); ++i) {
    if (is_open(i)) open.push_back(i);
  }
  if (open.empty()) return std::nullopt;
  auto give = [&](int i) {
    ++state_[i].batches;
    return i;
  };
  if (options_.round_robin) {
    // The first open task at or after the turn.
    for (int step = 0; step < size(); ++step) {
      const int i = (next_round_robin_ + step) % size();
      if (is_open(i)) {
        next_round_robin_ = (i + 1) % size();
        return give(i);
      }
    }
  }
  // Every task gets a batch before any gets a second: a task without a time has no gradient.
  for (int i : open) {
    if (state_[i].batches == 0) return give(i);
  }
  if (options_.epsilon > 0 &&
      std::uniform_real_distribution<double>(0, 1)(rng_) < options_.epsilon) {
    return give(open[std::uniform_int_distribution<size_t>(0, open.size() - 1)(rng_)]);
  }
  int best = open[0];
  double best_score = std::numeric_limits<double>::infinity();
  for (int i : open) {
    const double score = Score(i);
    if (score < best_score) {  // ties: the earlier task
      best = i;
      best_score = score;
    }
  }
  if (best_score >= 0) {
    // No open task promises a cut: the batch goes where the fewest trials went, as Ansor's
    // scheduler does, not to the first task in order. On ResNet-18 (5000 trials) the first in
    // order, a direct conv twice as slow as its Winograd rival, took 312 of the last 500.
    for (int i : open) {
      if (state_[i].trials < state_[best].trials) best = i;
    }
  }
  return give(best);
}

void TaskScheduler::Observe(int task, int trials, double best_seconds) {
  TaskState& s = state_[task];
  s.trials += std::max(0, trials);
  if (best_seconds > 0 && (s.best_seconds == 0 || best_seconds < s.best_seconds)) {
    s.best_seconds = best_seconds;
  }
  const bool improved = s.history.empty() || s.best_seconds < s.history.back().second;
  if (s.best_seconds > 0) s.history.emplace_back(s.trials, s.best_seconds);
  if (improved && s.best_seconds > 0) ChooseLayout();
}

void TaskScheduler::Restore(int task, int batches, int trials, double best_seconds) {
  TaskState& s = state_[task];
  s = TaskState{};
  s.batches = std::max(0, batches);
  Observe(task, trials, best_seconds);
}

void TaskScheduler::Finish(int task) { state_[task].finished = true; }

double TaskScheduler::Gradient(int task) const {
  const TaskState& s = state_[task];
  if (s.best_seconds <= 0 || s.trials == 0) {
    // No valid time yet: a few more batches may find one (every config so far failed); after
    // that the task promises nothing.
    return s.batches < options_.window ? -std::numeric_limits<double>::infinity() : 0;
  }
  // Optimistic: the next trial cuts as much as an average trial has so far.
  const double forward = -s.best_seconds / s.trials;
  // Recent: the slope of the best time over the last `window` batches.
  double backward = forward;
  if (s.history.size() >= 2) {
    const size_t now = s.history.size() - 1;
    const size_t then = now >= static_cast<size_t>(options_.window) ? now - options_.window : 0;
    const int dt = s.history[now].first - s.history[then].first;
    if (dt > 0) backward = (s.history[now].second - s.history[then].second) / dt;
  }
  const double gradient = options_.alpha * backward + (1 - options_.alpha) * forward;
  if (!in_layout_.empty() && in_layout_[task]) return gradient;
  // Trials spent on the slower algorithm of a layer change nothing until it is the faster.
  double layer_best = s.best_seconds;
  for (int i = 0; i < size(); ++i) {
    if (tasks_[i].layer >= 0 && tasks_[i].layer == tasks_[task].layer &&
        state_[i].best_seconds > 0) {
      layer_best = std::min(layer_best, state_[i].best_seconds);
    }
  }
  const double gap = s.best_seconds - layer_best;
  return gap > 0 && Reach(task, gradient) < gap ? 0 : gradient;
}

double TaskScheduler::Reach(int task, double gradient) const {
  const TaskState& s = state_[task];
  // The optimistic guess alone would promise anything after a warm-up batch: tuning more than
  // halves a kernel's time rarely, so no more is counted on.
  return std::min(-gradient * s.trials / std::max(1, s.batches) * options_.window,
                  s.best_seconds / 2);
}

double TaskScheduler::Score(int task) const {
  const double gradient = Gradient(task);
  if (in_layout_.empty() || !in_layout_[task]) {
    // A block pair the layout never puts at its conv cuts nothing, however fast it gets.
    return !outside_layout_.empty() && outside_layout_[task] ? 0 : tasks_[task].weight * gradient;
  }
  // Without a time yet (an infinite gradient), a few more batches may find one.
  if (!std::isfinite(gradient)) return gradient;
  if (layout_runs_[task] > 0 || gradient >= 0) return layout_runs_[task] * gradient;
  // Not in the chosen layout: would it be, were its time already `Reach` lower?
  std::vector<double> bests;
  for (const TaskState& s : state_) bests.push_back(s.best_seconds);
  bests[task] -= Reach(task, gradient);
  std::vector<int> runs;
  const BlockAssignment ahead = ChooseBlocks(layout_, bests);
  CostOfAssignment(layout_, ahead.blocks, bests, &runs);
  return runs[task] * gradient;
}

std::optional<double> TaskScheduler::EstimatedSeconds() const {
  std::vector<TaskBest> bests;
  for (int i = 0; i < size(); ++i) {
    bests.push_back({tasks_[i].layer, tasks_[i].weight, state_[i].best_seconds});
  }
  return EstimateModel(bests, layout_).seconds;
}

}  // namespace tunefarm::tuner
