#include "driver/local_model_tuner.h"

#include <memory>
#include <vector>

#include "absl/strings/str_cat.h"
#include "driver/local_race_timer.h"
#include "driver/record_db.h"
#include "runtime/core/thread_pool.h"
#include "runtime/devices/process_gpu.h"
#include "runtime/measure/measure_options.h"
#include "tuner/measure/local_measure.h"
#include "tuner/model_latency_estimate.h"
#include "tuner/model_tuning.h"
#include "tuner/search/task_tuning_setup.h"
#include "tuner/templates/template_registry.h"

namespace tunefarm::driver {
namespace {

// One task of the model and what tunes it, kept alive for the whole run.
struct TaskRun {
  tuner::ModelTask model_task;
  std::unique_ptr<tuner::Task> task;
  std::unique_ptr<tuner::StrategyBundle> strategy;
  std::unique_ptr<tuner::TuningSession> session;
};

}  // namespace

absl::StatusOr<target::Target> ResolveLocalGpu(const std::string& text,
                                               const target::Target& target,
                                               std::string* device_key) {
  const runtime::gpu::GpuApi api =
      target.is_cuda() ? runtime::gpu::GpuApi::kCuda : runtime::gpu::GpuApi::kOpenCl;
  absl::StatusOr<std::shared_ptr<runtime::gpu::GpuDevice>> gpu =
      runtime::devices::ProcessGpuDevice(api);
  if (!gpu.ok()) {
    return absl::FailedPreconditionError(
        absl::StrCat("cannot measure '", text, "' on this machine: no ",
                     runtime::gpu::GpuApiTitle(api), " device present (", gpu.status().message(),
                     "); tune it on a farm with a worker of it (--tracker)"));
  }
  if (device_key->empty()) *device_key = tuner::LocalDeviceKey((*gpu)->attributes().name);
  // A module built for another arch would not load: a plain `cuda` becomes this GPU's.
  if (text != "cuda") return target;
  return target::ParseTarget(absl::StrCat("cuda -arch=", (*gpu)->attributes().arch));
}

absl::StatusOr<target::Target> LocalModelTuner::ResolveTarget(tuner::TuningRequest& tuning) {
  const std::string& text = tuning.target;
  absl::StatusOr<target::Target> target = target::ParseTarget(text);
  if (!target.ok()) return target.status();
  if (target->is_gpu()) return ResolveLocalGpu(text, *target, &tuning.device_key);
  // The local runner loads candidates into a process on this machine.
  if (!target->llvm().is_host) {
    return absl::InvalidArgumentError(absl::StrCat(
        "cannot measure '", text, "' on this machine: model tune runs candidates here"));
  }
  return target;
}

absl::StatusOr<TunedModel> LocalModelTuner::Tune(const ModelTuning& tuning,
                                                 const target::Target& target,
                                                 const ModelTuneRequest& request,
                                                 ModelTuneObserver& observer,
                                                 const std::atomic<bool>* stop) {
  const tuner::TuningRequest& req = request.tuning;
  // Refused before the database is opened: a mistyped name creates nothing.
  if (absl::Status s = tuner::CheckStrategyName(req.tuner); !s.ok()) return s;
  absl::StatusOr<std::unique_ptr<tuner::RecordStore>> store = OpenRecordDb(db_, DbMode::kCreate);
  if (!store.ok()) return store.status();
  absl::StatusOr<tuner::LocalMeasure> measure =
      tuner::MakeLocalMeasure(req.measure, req.device_key);
  if (!measure.ok()) return measure.status();
  const std::string device_key = measure->runner->device_key();

  std::vector<TaskRun> runs;
  for (const tuner::ModelTask& mt : tuning.tasks) {
    TaskRun run;
    run.model_task = mt;
    absl::StatusOr<std::unique_ptr<tuner::Task>> task =
        tuner::CreateTask(run.model_task.workload, target);
    if (!task.ok()) return task.status();
    run.task = *std::move(task);
    tuner::TuningRequest task_request = req;
    task_request.seed = req.seed + runs.size();  // each task its own stream, the run reproducible
    absl::StatusOr<tuner::TaskTuningSetup> setup =
        tuner::SetUpTaskTuning(*run.task, task_request, device_key, **store);
    if (!setup.ok()) return setup.status();
    run.strategy = std::move(setup->strategy);
    setup->tune.stop = stop;  // the run's budget bounds each task; the scheduler shares it out
    run.session = std::make_unique<tuner::TuningSession>(*run.task, *run.strategy->strategy,
                                                         store->get(), device_key, setup->tune);
    // Earlier records of the same workload on this device key count: they are not measured again.
    if (absl::Status s = run.session->Start(); !s.ok()) return s;
    runs.push_back(std::move(run));
  }

  std::vector<tuner::ScheduledTask> scheduled;
  std::vector<tuner::TaskTuning> tasks;
  for (const TaskRun& r : runs) {
    scheduled.push_back(
        {r.task->key(), static_cast<double>(r.model_task.groups.size()), r.model_task.layer});
    tasks.push_back({r.task.get(), r.session.get()});
  }
  tuner::TaskSchedulerOptions scheduler_options;
  scheduler_options.round_robin = request.round_robin;
  scheduler_options.seed = req.seed;
  tuner::TaskScheduler scheduler(scheduled, scheduler_options, tuning.layout);
  observer.OnStart(absl::StrCat(
      "tuning ", request.model.file, " on ", target::DisplayTarget(target.str()), " (", device_key,
      "): ", runs.size(), " tasks, ", req.trials, " trials, tuner ", req.tuner, ", ",
      request.round_robin ? "round-robin" : "gradient", " task scheduler, ",
      std::string(runtime::measure::TimingName(req.measure.cache_flush)), " timing, database ",
      db_));
  if (!tuning.layouts_line.empty()) observer.OnNote(tuning.layouts_line);
  tuner::TuneTasksOptions options;
  options.trials = req.trials;
  options.batch_size = req.batch_size;
  options.stop = stop;
  options.on_batch = [&observer](int task, const tuner::TaskScheduler& s) {
    TunedTask t{s.task(task).key, s.task(task).weight, s.task(task).layer, s.trials(task),
                s.best_seconds(task)};
    observer.OnBatch(task, t, s.EstimatedSeconds().value_or(0));
  };
  absl::StatusOr<tuner::TuneTasksSummary> summary =
      tuner::TuneTasks(tasks, scheduler, *measure->builder, *measure->runner, options);
  if (!summary.ok()) return summary.status();

  TunedModel tuned;
  tuned.ending =
      summary->interrupted ? TunedModel::Ending::kStopped : TunedModel::Ending::kSucceeded;
  if (summary->interrupted) tuned.message = "stopped by request; every finished trial is recorded";
  tuned.device_key = device_key;
  tuned.target = target.str();
  tuned.trials_done = summary->trials_done;
  tuned.layout = tuning.layout;
  for (int i = 0; i < scheduler.size(); ++i) {
    const tuner::TuneSummary& s = summary->tasks[i];
    const double best = s.best ? tuner::MedianSeconds(s.best->repeat_seconds).value_or(0) : 0;
    tuned.tasks.push_back({scheduler.task(i).key, scheduler.task(i).weight, scheduler.task(i).layer,
                           s.progress.trials_done, best});
  }
  return tuned;
}

absl::StatusOr<std::string> LocalModelTuner::BestRecords(const TunedModel&, const std::string&) {
  return db_;
}

ModuleRaceTimer LocalModelTuner::Timer(const target::Target& target,
                                       const tuner::TuningRequest& tuning, int rounds,
                                       std::string* why_not) {
  if (target.is_gpu()) {
    *why_not = "a GPU model's kernels are timed by their records; modules run here on the CPU";
    return nullptr;
  }
  const int threads = tuning.measure.threads;
  const ModuleRaceTimer timer = LocalRaceTimer(rounds);
  // At the parallel width the kernels were tuned for.
  return [timer, threads](const std::string& a, const std::string& b) -> absl::StatusOr<RaceTimes> {
    std::string error;
    if (threads > 0 && !runtime::SetNumThreads(threads, &error)) {
      return absl::InvalidArgumentError(absl::StrCat("threads: ", error));
    }
    return timer(a, b);
  };
}

}  // namespace tunefarm::driver
