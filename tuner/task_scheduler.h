// TaskScheduler: spreads one trial budget over a model's tuning tasks. Each batch goes to the
// task expected to cut the model's latency (model_latency_estimate.h) the most per trial: its
// weight times how fast its best time has been falling lately, blended with an optimistic guess
// from its best time so far (the gradient scheduling of Ansor's paper). Every task first gets one
// batch, so each has a time to reason about. A layer's alternative algorithms compete: one behind
// the layer's fastest is worth trials only while its pace could overtake it soon. With a layout
// choice (`model tune --layouts`), the blocked convs' kernels and transforms count where the
// layout chosen from the best times so far runs them, and one it does not run is worth trials
// only while its pace could bring it into that layout soon. A policy only: the caller runs the
// batches (locally or as farm jobs) and reports what they found.
#pragma once

#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "tuner/layout_choice.h"

namespace tunefarm::tuner {

struct ScheduledTask {
  std::string key;    // the workload key, for messages
  double weight = 1;  // how many times one run of the model runs it
  int layer = -1;     // tasks with the same layer >= 0 are alternatives (see TaskBest)
};

struct TaskSchedulerOptions {
  // Round-robin instead of gradients (the baseline the gradient scheduler is compared with).
  bool round_robin = false;
  // The chance of giving a batch to a random unfinished task instead (exploration).
  double epsilon = 0.05;
  // How many of a task's batches back its recent slope is measured over.
  int window = 3;
  // The weight of the recent slope against the optimistic guess (best / trials so far).
  double alpha = 0.2;
  uint64_t seed = 1;
};

class TaskScheduler {
 public:
  // `layout` (validated against the tasks) covers the tasks its uses name; the others compete
  // by layer.
  TaskScheduler(std::vector<ScheduledTask> tasks, TaskSchedulerOptions options,
                LayoutChoice layout = {});

  // The task to give the next batch to, or nullopt once every task is finished or busy. A task
  // with busy[i] set still has a batch running (the farm runs several tasks' batches at once)
  // and is passed over. When no open task promises a cut, the one with the fewest trials.
  std::optional<int> Next(const std::vector<bool>& busy = {});
  // A batch of `task` ended: `trials` more were measured, and its best time is now
  // `best_seconds` (0: no valid result yet).
  void Observe(int task, int trials, double best_seconds);
  // A task's state carried over from an earlier run (a model job resumed by a restarted
  // tracker): `batches` given, `trials` measured, its best time now (0: none). Its history
  // restarts there.
  void Restore(int task, int batches, int trials, double best_seconds);
  // The task will propose nothing more (its space is exhausted, it stopped early, or it failed).
  void Finish(int task);

  // EstimateModel of the tasks' best times (with a layout choice: its chosen layout's kernels and
  // transforms, and the other tasks' layers); nullopt while one has no result.
  std::optional<double> EstimatedSeconds() const;
  // With a layout choice: at how many sites its chosen layout runs `task` (0 for a task outside
  // it). Exposed for tests.
  int LayoutRuns(int task) const { return layout_runs_.empty() ? 0 : layout_runs_[task]; }
  int trials(int task) const { return state_[task].trials; }
  double best_seconds(int task) const { return state_[task].best_seconds; }
  bool finished(int task) const { return state_[task].finished; }
  int size() const { return static_cast<int>(tasks_.size()); }
  const ScheduledTask& task(int i) const { return tasks_[i]; }

  // d(latency of one run of `task`) / d(its trials): negative while more trials are expected to
  // help. An alternative slower than its layer's fastest gets 0 unless, at its recent pace,
  // `window` more of its batches would overtake it (counting on at most halving its time); a
  // task of the layout choice is not compared by layer (Score weighs it by the layout).
  // Exposed for tests and the dashboard's "expected gain".
  double Gradient(int task) const;
  // The expected change of the model's latency per trial of `task`: Gradient times the task's
  // weight, or, for a task of the layout choice, times the sites the chosen layout runs it at
  // (where it runs nowhere: those of the layout chosen were its time already `window` batches
  // ahead, often 0).
  double Score(int task) const;

 private:
  struct TaskState {
    int trials = 0;
    int batches = 0;
    double best_seconds = 0;
    bool finished = false;
    // (trials, best) after each batch with a result: the slope is read from these.
    std::vector<std::pair<int, double>> history;
  };

  std::vector<ScheduledTask> tasks_;
  TaskSchedulerOptions options_;
  // How far `window` more batches may take the task's time at its pace (at most half of it).
  double Reach(int task, double gradient) const;
  // The layout chosen with the best times now, when there is a layout choice.
  void ChooseLayout();

  std::vector<TaskState> state_;
  LayoutChoice layout_;
  std::vector<bool> in_layout_;       // named by one of layout_'s uses
  std::vector<bool> outside_layout_;  // never run under layout_ (OutsideTheLayout)
  std::vector<int> layout_runs_;
  std::mt19937_64 rng_;
  int next_round_robin_ = 0;
};

}  // namespace tunefarm::tuner
