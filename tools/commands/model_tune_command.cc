#include "tools/commands/model_tune_command.h"

#include <algorithm>
#include <cstdio>
#include <memory>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "compiler/codegen/llvm/llvm_target.h"
#include "compiler/graph/fusion.h"
#include "compiler/target/target.h"
#include "compiler/target/target_cpu.h"
#include "driver/model_records.h"
#include "driver/record_db.h"
#include "tools/commands/exit_codes.h"
#include "tuner/measure/local_measure.h"
#include "tuner/model_latency_estimate.h"
#include "tuner/model_tasks.h"
#include "tuner/model_tuning.h"
#include "tuner/search/strategy_factory.h"
#include "tuner/templates/template_registry.h"

namespace tunefarm::tools {
namespace {

// One task of the model and what tunes it, kept alive for the whole run.
struct TaskRun {
  tuner::ModelTask model_task;
  std::unique_ptr<tuner::Task> task;
  std::unique_ptr<tuner::StrategyBundle> strategy;
  std::unique_ptr<tuner::TuningSession> session;
};

}  // namespace

std::string MsText(double seconds) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f ms", seconds * 1e3);
  return buf;
}

void PrintTunedTasks(const std::vector<TunedTaskLine>& tasks, int trials_done,
                     const tuner::LayoutChoice& layout, std::ostream& out) {
  std::vector<tuner::TaskBest> bests;
  for (const TunedTaskLine& t : tasks) bests.push_back({t.layer, t.weight, t.best_seconds});
  const tuner::ModelEstimate estimate = tuner::EstimateModel(bests, layout);
  out << "task  layer  weight  trials  best           workload\n";
  for (size_t i = 0; i < tasks.size(); ++i) {
    const TunedTaskLine& t = tasks[i];
    char line[96];
    std::snprintf(line, sizeof line, "%4zu  %5d  %6.0f  %6d  %-12s%s  ", i, t.layer, t.weight,
                  t.trials, t.best_seconds > 0 ? MsText(t.best_seconds).c_str() : "none",
                  estimate.runs[i] > 0 ? "*" : " ");
    out << line << t.workload_key << "\n";
  }
  out << "trials=" << trials_done;
  // With earlier records included: what the kernels the build would run cost the model per run
  // (with --layouts, the layout chosen from these bests: its kernels and transforms).
  if (estimate.seconds) out << " tuned_kernels_ms=" << *estimate.seconds * 1e3;
  out << "\n";
}

namespace {}  // namespace

driver::ModelTuningRequest TuningRequestOf(const ModelTuneOptions& o) {
  driver::ModelTuningRequest request;
  request.file = o.file;
  request.compile.input_shapes = o.compile.input_shapes;
  request.compile.disabled_passes = o.compile.disabled_passes;
  request.layouts = o.layouts;
  request.trials = o.tune.trials;
  request.batch_size = o.tune.batch_size;
  return request;
}

int RunModelTuneCommand(const ModelTuneOptions& o, const std::atomic<bool>* stop, std::ostream& out,
                        std::ostream& err) {
  auto fail = [&err](int code, const absl::Status& s) {
    err << "tunefarm: " << s.message() << "\n";
    return code;
  };
  TuneCommandOptions t = o.tune;
  if (t.trials <= 0 || t.batch_size <= 0 || t.repeat <= 0) {
    return fail(kExitUsage,
                absl::InvalidArgumentError("--trials, --batch-size and --repeat must be positive"));
  }
  if (!t.tracker.empty()) return RunRemoteModelTuneCommand(o, stop, out, err);
  // Refused rather than ignored: a local tune ends with the `model build` line to run instead.
  for (const auto& [given, flag] :
       {std::pair{!o.output.empty(), "-o/--output"}, std::pair{t.detach, "--detach"},
        std::pair{!t.key.empty(), "--key"}, std::pair{!t.token_file.empty(), "--token-file"}}) {
    if (given) {
      return fail(kExitUsage, absl::InvalidArgumentError(absl::StrCat(
                                  flag,
                                  " applies to a farm tune (with --tracker HOST:PORT); a "
                                  "local tune prints the `model build` command to run")));
    }
  }
  // The local runner loads candidates into a process on this machine.
  absl::StatusOr<target::Target> target = target::ParseTarget(t.target);
  if (!target.ok()) return fail(kExitUsage, target.status());
  if (target->is_gpu()) {
    absl::StatusOr<target::Target> gpu = ResolveLocalGpu(t, *target);
    if (!gpu.ok()) return fail(1, gpu.status());
    target = *std::move(gpu);
  } else if (!target->llvm().is_host) {
    return fail(kExitUsage, absl::InvalidArgumentError(absl::StrCat(
                                "cannot measure '", t.target,
                                "' on this machine: model tune runs candidates here")));
  }
  absl::StatusOr<driver::ModelTuning> model_tasks =
      driver::ModelTuningTasks(TuningRequestOf(o), *target);
  if (!model_tasks.ok()) return fail(1, model_tasks.status());
  // Refused before the database is opened: a mistyped flag creates nothing.
  if (absl::Status s = tuner::CheckStrategyName(t.tuner); !s.ok()) return fail(kExitUsage, s);

  absl::StatusOr<std::unique_ptr<tuner::RecordStore>> store =
      driver::OpenRecordDb(t.db, driver::DbMode::kCreate);
  if (!store.ok()) return fail(1, store.status());
  absl::StatusOr<tuner::LocalMeasure> measure =
      tuner::MakeLocalMeasure(MeasureOptionsOf(t), LocalTuneDeviceKey(t));
  if (!measure.ok()) return fail(1, measure.status());
  const std::string device_key = measure->runner->device_key();

  std::vector<TaskRun> runs;
  for (tuner::ModelTask& mt : model_tasks->tasks) {
    TaskRun run;
    run.model_task = std::move(mt);
    absl::StatusOr<std::unique_ptr<tuner::Task>> task =
        tuner::CreateTask(run.model_task.workload, *target);
    if (!task.ok()) return fail(1, task.status());
    run.task = *std::move(task);
    if (absl::Status s = (*store)->PutWorkload(run.task->key(), run.task->flops()); !s.ok()) {
      return fail(1, s);
    }
    tuner::StrategyOptions so;
    so.name = t.tuner;
    so.seed = SeedOf(t) + runs.size();  // each task its own stream, the run reproducible
    so.transfer_from = t.transfer ? store->get() : nullptr;
    so.transfer_cache_flush = t.cache_flush;
    so.device_key = device_key;
    so.make_task = [&target](const tuner::Workload& w) { return tuner::CreateTask(w, *target); };
    absl::StatusOr<std::unique_ptr<tuner::StrategyBundle>> strategy =
        tuner::MakeSearchStrategy(*run.task, so);
    if (!strategy.ok()) {
      return fail(strategy.status().code() == absl::StatusCode::kInvalidArgument ? kExitUsage : 1,
                  strategy.status());
    }
    run.strategy = *std::move(strategy);
    tuner::TuneOptions tune;
    tune.trials = t.trials;  // the run's budget bounds it; the scheduler shares it out
    tune.batch_size = t.batch_size;
    tune.stop = stop;
    tune.cache_flush = t.cache_flush;
    run.session = std::make_unique<tuner::TuningSession>(*run.task, *run.strategy->strategy,
                                                         store->get(), device_key, tune);
    // Earlier records of the same workload on this device key count: they are not measured again.
    if (absl::Status s = run.session->Start(); !s.ok()) return fail(1, s);
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
  scheduler_options.round_robin = o.round_robin;
  scheduler_options.seed = SeedOf(t);
  tuner::TaskScheduler scheduler(scheduled, scheduler_options, model_tasks->layout);
  out << "tuning " << o.file << " on " << target::DisplayTarget(target->str()) << " (" << device_key
      << "): " << runs.size() << " tasks, " << t.trials << " trials, tuner " << t.tuner << ", "
      << (o.round_robin ? "round-robin" : "gradient") << " task scheduler, "
      << TimingName(t.cache_flush) << " timing, database " << t.db << "\n";
  if (!model_tasks->layouts_line.empty()) out << model_tasks->layouts_line << "\n";
  out << std::flush;
  tuner::TuneTasksOptions options;
  options.trials = t.trials;
  options.batch_size = t.batch_size;
  options.stop = stop;
  if (t.progress) {
    options.on_batch = [&err](int task, const tuner::TaskScheduler& s) {
      std::optional<double> estimate = s.EstimatedSeconds();
      err << "  task " << task << " (" << s.task(task).key << "): " << s.trials(task)
          << " trials, best " << MsText(s.best_seconds(task))
          << (estimate ? absl::StrCat("; model estimate ", MsText(*estimate)) : std::string())
          << "\n";
    };
  }
  absl::StatusOr<tuner::TuneTasksSummary> summary =
      tuner::TuneTasks(tasks, scheduler, *measure->builder, *measure->runner, options);
  if (!summary.ok()) return fail(1, summary.status());

  std::vector<TunedTaskLine> lines;
  for (int i = 0; i < scheduler.size(); ++i) {
    const tuner::TuneSummary& s = summary->tasks[i];
    const double best = s.best ? tuner::MedianSeconds(s.best->repeat_seconds).value_or(0) : 0;
    lines.push_back({scheduler.task(i).key, scheduler.task(i).weight, scheduler.task(i).layer,
                     s.progress.trials_done, best});
  }
  PrintTunedTasks(lines, summary->trials_done, model_tasks->layout, out);
  if (summary->interrupted) out << "stopped by request; every finished trial is recorded\n";
  // The command to copy: the shapes tuned, and the race that settles each conv's algorithm in
  // the model at the thread count tuned for.
  out << "build it: tunefarm model build " << o.file;
  for (const auto& [name, dims] : o.compile.input_shapes) {
    out << " --input-shape " << name << "=" << absl::StrJoin(dims, ",");
  }
  out << " -o MODEL.so --db " << t.db << " --device-key " << device_key;
  if (target->is_gpu()) {
    out << " --target \"" << target->str() << "\"";  // a GPU's kernels: no CPU race to run
  } else {
    out << " --race";
    if (t.threads > 0) out << " --threads " << t.threads;
  }
  out << "\n";
  return 0;
}

}  // namespace tunefarm::tools
