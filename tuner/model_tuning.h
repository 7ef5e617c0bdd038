// TuneTasks: tunes a model's tasks on this machine under one trial budget, batch by batch, each
// batch given to the task the TaskScheduler picks. Every task keeps its TuningSession (and its
// strategy) for the whole run, so each learns from all its results; every result is recorded by
// its session as it is in a single-task run.
#pragma once

#include <atomic>
#include <functional>
#include <vector>

#include "absl/status/statusor.h"
#include "tuner/measure.h"
#include "tuner/task.h"
#include "tuner/task_scheduler.h"
#include "tuner/tuning_loop.h"
#include "tuner/tuning_session.h"

namespace tunefarm::tuner {

struct TaskTuning {
  const Task* task = nullptr;
  // Started, with a budget of the whole run's trials (the run's budget is what stops it).
  TuningSession* session = nullptr;
};

struct TuneTasksOptions {
  int trials = 100;  // over all tasks
  int batch_size = 16;
  const std::atomic<bool>* stop = nullptr;  // polled between batches
  // After each batch: which task ran, and the scheduler's view of every task.
  std::function<void(int task, const TaskScheduler&)> on_batch;
};

struct TuneTasksSummary {
  int trials_done = 0;
  bool interrupted = false;
  std::vector<TuneSummary> tasks;  // per task, in order (Finish of its session)
};

// Runs batches until `options.trials` are measured, every task is done, or a stop is requested;
// then finishes every session. `scheduler` has one entry per task, in the same order. Errors: a
// session's (the record store failing).
absl::StatusOr<TuneTasksSummary> TuneTasks(const std::vector<TaskTuning>& tasks,
                                           TaskScheduler& scheduler, Builder& builder,
                                           Runner& runner, const TuneTasksOptions& options);

}  // namespace tunefarm::tuner
