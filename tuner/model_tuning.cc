#include "tuner/model_tuning.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"

namespace tunefarm::tuner {

absl::StatusOr<TuneTasksSummary> TuneTasks(const std::vector<TaskTuning>& tasks,
                                           TaskScheduler& scheduler, Builder& builder,
                                           Runner& runner, const TuneTasksOptions& options) {
  if (scheduler.size() != static_cast<int>(tasks.size())) {
    return absl::InvalidArgumentError(
        absl::StrCat("the scheduler has ", scheduler.size(), " tasks, the run ", tasks.size()));
  }
  if (options.trials < 0 || options.batch_size <= 0) {
    return absl::InvalidArgumentError(absl::StrCat("trials (", options.trials,
                                                   ") must be >= 0 and batch_size (",
                                                   options.batch_size, ") > 0"));
  }
  TuneTasksSummary summary;
  while (summary.trials_done < options.trials) {
    if (options.stop != nullptr && options.stop->load()) {
      summary.interrupted = true;
      break;
    }
    std::optional<int> next = scheduler.Next();
    if (!next) break;  // every task is done
    const TaskTuning& t = tasks[*next];
    const int max = std::min(options.batch_size, options.trials - summary.trials_done);
    absl::StatusOr<std::vector<space::Config>> batch = t.session->Propose(max);
    if (!batch.ok()) return batch.status();
    if (batch->empty()) {
      // Its space is exhausted or it stopped early: nothing in flight between batches.
      scheduler.Finish(*next);
      continue;
    }
    std::vector<MeasureInput> inputs;
    for (const space::Config& c : *batch) inputs.push_back(MeasureInput{t.task, c});
    std::vector<BuildResult> builds = builder.Build(inputs);
    std::vector<MeasureResult> results =
        runner.Run(inputs, builds, t.session->progress().best_seconds);
    // A runner that stopped early returns fewer results: the rest were never measured.
    const int measured = static_cast<int>(results.size());
    results.resize(batch->size());
    for (size_t i = measured; i < results.size(); ++i) results[i].cancelled = true;
    if (absl::Status s = t.session->Complete(*batch, std::move(results)); !s.ok()) return s;
    summary.trials_done += measured;
    scheduler.Observe(*next, measured, t.session->progress().best_seconds);
    if (t.session->done()) scheduler.Finish(*next);
    if (options.on_batch) options.on_batch(*next, scheduler);
  }
  for (const TaskTuning& t : tasks) {
    absl::StatusOr<TuneSummary> s = t.session->Finish();
    if (!s.ok()) return s.status();
    summary.tasks.push_back(*std::move(s));
  }
  return summary;
}

}  // namespace tunefarm::tuner
