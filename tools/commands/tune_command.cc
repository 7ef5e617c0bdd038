// RunTuneCommand: wires a task (workload key or TE script), the local builder and isolated
// runner, a search strategy and the record database into one tuning loop, and reports.
#include "tools/commands/tune_command.h"

#include <cstdio>
#include <fstream>
#include <sstream>
#include <unistd.h>

#include "absl/strings/str_cat.h"
#include "compiler/target/target.h"
#include "driver/bindings.h"
#include "driver/local_model_tuner.h"
#include "driver/record_db.h"
#include "tools/commands/exit_codes.h"
#include "tools/commands/tune_progress.h"
#include "tools/commands/verified_summary.h"
#include "tuner/measure/local_measure.h"
#include "tuner/measure/verified_best.h"
#include "tuner/search/task_tuning_setup.h"
#include "tuner/templates/script_template.h"
#include "tuner/templates/template_registry.h"
#include "tuner/tuning_loop.h"

namespace tunefarm::tools {
namespace {

struct Failure {
  int code;
  absl::Status status;
};

absl::StatusOr<std::unique_ptr<tuner::Task>> MakeTask(const TuneCommandOptions& o,
                                                      const target::Target& target, int& code) {
  code = kExitUsage;
  if (o.workload.empty() == o.script.empty()) {
    return absl::InvalidArgumentError("give exactly one of --workload KEY and --template FILE.te");
  }
  if (!o.workload.empty()) {
    if (!o.bind.empty()) return absl::InvalidArgumentError("--bind applies to --template only");
    absl::StatusOr<tuner::Workload> w = tuner::ParseWorkloadKey(o.workload);
    if (!w.ok()) return w.status();
    return tuner::CreateTask(*w, target);
  }
  std::ifstream in(o.script, std::ios::binary);
  if (!in) return absl::NotFoundError(absl::StrCat("cannot read ", o.script));
  std::stringstream text;
  text << in.rdbuf();
  absl::StatusOr<driver::Bindings> bindings = driver::ParseBindings(o.bind);
  if (!bindings.ok()) return bindings.status();
  code = 1;  // from here on a script error is the script's, not the command line's
  return tuner::CreateScriptTask(o.script, text.str(), *bindings, target);
}

void PrintSummary(const tuner::Task& task, const tuner::TuneSummary& s, std::ostream& out) {
  const tuner::TuneProgress& p = s.progress;
  out << "trials=" << p.trials_done << " errors=" << p.errors;
  for (const auto& [kind, n] : p.error_counts) {
    out << " " << tuner::ErrorKindName(kind) << "=" << n;
  }
  char buf[64];
  std::snprintf(buf, sizeof(buf), " seconds=%.1f", p.elapsed_seconds);
  out << buf << "\n";
  if (s.interrupted) out << "stopped by request; every finished trial is recorded\n";
  if (s.early_stopped) out << "stopped early: no improvement in the last trials\n";
  if (s.exhausted) out << "the config space is exhausted\n";
  if (!s.best) {
    out << "no config of " << task.key() << " ran successfully\n";
    return;
  }
  double median = tuner::MedianSeconds(s.best->repeat_seconds).value_or(0);
  std::snprintf(buf, sizeof(buf), "median_ms=%.4f gflops=%.2f", median * 1e3,
                median > 0 ? task.flops() / median / 1e9 : 0.0);
  out << "best " << task.key() << " on " << s.best->device_key << ": " << buf << "\n"
      << "config=" << s.best->config_json << "\n";
}

// What the records claim is not a speedup: the fastest recorded configs and the default are
// timed again here in alternating rounds, and only that is printed as one.
void PrintVerified(tuner::RecordStore& store, const tuner::Task& task,
                   const std::string& device_key, int threads, std::ostream& out) {
  tuner::VerifyOptions options;
  options.threads = threads;
  absl::StatusOr<tuner::VerifiedBest> v = tuner::VerifyBest(store, task, device_key, options);
  if (!v.ok()) {
    out << "not verified: " << v.status().message() << "\n";
    return;
  }
  PrintVerifiedBest(*v, "here", "", out);
}

// The tuning loop on this machine, for a target this machine can measure.
int RunLocalTune(const TuneCommandOptions& o, const target::Target& target,
                 const std::atomic<bool>* stop, std::ostream& out, std::ostream& err) {
  auto fail = [&err](int code, const absl::Status& s) {
    err << "tunefarm: " << s.message() << "\n";
    return code;
  };
  int code = kExitUsage;
  absl::StatusOr<std::unique_ptr<tuner::Task>> task = MakeTask(o, target, code);
  if (!task.ok()) return fail(code, task.status());
  // Refused before the database is opened: a mistyped flag creates nothing.
  if (absl::Status s = tuner::CheckStrategyName(o.tuner); !s.ok()) return fail(kExitUsage, s);
  absl::StatusOr<std::unique_ptr<tuner::RecordStore>> store =
      driver::OpenRecordDb(o.db, driver::DbMode::kCreate);
  if (!store.ok()) return fail(1, store.status());

  absl::StatusOr<tuner::LocalMeasure> measure =
      tuner::MakeLocalMeasure(MeasureOptionsOf(o), LocalTuneDeviceKey(o));
  if (!measure.ok()) return fail(1, measure.status());
  tuner::LocalBuilder* builder = measure->builder.get();
  tuner::LocalRunner* runner = measure->runner.get();
  absl::StatusOr<tuner::TaskTuningSetup> setup =
      tuner::SetUpTaskTuning(**task, TuningRequestOf(o), runner->device_key(), **store);
  if (!setup.ok()) {
    return fail(setup.status().code() == absl::StatusCode::kInvalidArgument ? kExitUsage : 1,
                setup.status());
  }
  const tuner::StrategyBundle& strategy = *setup->strategy;
  if (!strategy.transfer_summary.empty()) out << strategy.transfer_summary << "\n";
  out << "tuning " << (*task)->key() << " on " << target::DisplayTarget(target.str()) << " ("
      << runner->device_key() << "): " << (*task)->space().size() << " configs, tuner " << o.tuner
      << ", " << o.trials << " trials, database " << o.db << "\n"
      << std::flush;
  TuneProgressPrinter printer(err, o.progress && ::isatty(STDERR_FILENO) == 1);
  tuner::TuneOptions tune = setup->tune;
  tune.stop = stop;
  if (o.progress)
    tune.on_progress = [&printer](const tuner::TuneProgress& p) { printer.Update(p); };
  absl::StatusOr<tuner::TuneSummary> summary =
      tuner::Tune(**task, *strategy.strategy, *builder, *runner, store->get(), tune);
  printer.Finish();
  if (!summary.ok()) return fail(1, summary.status());
  PrintSummary(**task, *summary, out);
  if (o.verify && summary->best && !summary->interrupted &&
      o.measure.cache_flush == tuner::CacheFlush::kNone &&
      target.kind() == target::Target::Kind::kCpu) {
    PrintVerified(**store, **task, runner->device_key(), MeasureOptionsOf(o).threads, out);
  }
  return 0;
}

}  // namespace

uint64_t SeedOf(const TuneCommandOptions& o) { return o.seed == 0 ? 1 : o.seed; }

std::string LocalTuneDeviceKey(const TuneCommandOptions& o) {
  // Timings at another parallel width are another device's: keep them apart.
  if (o.device_key.empty() && o.measure.threads > 0) {
    return absl::StrCat(tuner::LocalDeviceKey(topi::DetectHostCpu().model), "-", o.measure.threads,
                        "t");
  }
  return o.device_key;
}

tuner::MeasureOptions MeasureOptionsOf(const TuneCommandOptions& o) {
  tuner::MeasureOptions m = o.measure;
  m.seed = SeedOf(o);
  runtime::measure::ApplyTiming(o.measure.cache_flush, m);
  return m;
}

tuner::TuningRequest TuningRequestOf(const TuneCommandOptions& o) {
  tuner::TuningRequest request = o;
  request.seed = SeedOf(o);
  request.measure = MeasureOptionsOf(o);
  return request;
}

int RunTuneCommand(const TuneCommandOptions& o, const std::atomic<bool>* stop, std::ostream& out,
                   std::ostream& err) {
  auto fail = [&err](int code, const absl::Status& s) {
    err << "tunefarm: " << s.message() << "\n";
    return code;
  };
  if (o.trials <= 0 || o.batch_size <= 0 || o.early_stopping < 0 || o.measure.repeat <= 0) {
    return fail(kExitUsage, absl::InvalidArgumentError(
                                "--trials, --batch-size and --repeat must be positive and "
                                "--early-stopping not negative"));
  }
  if (!o.tracker.empty()) return RunRemoteTuneCommand(o, stop, out, err);
  absl::StatusOr<target::Target> target = target::ParseTarget(o.target);
  if (!target.ok()) return fail(kExitUsage, target.status());
  if (target->is_gpu()) {
    TuneCommandOptions gpu_options = o;
    absl::StatusOr<target::Target> gpu =
        driver::ResolveLocalGpu(o.target, *target, &gpu_options.device_key);
    if (!gpu.ok()) return fail(1, gpu.status());
    return RunLocalTune(gpu_options, *gpu, stop, out, err);
  }
  // The local runner loads candidates into a process on this machine.
  if (!target->llvm().is_host) {
    return fail(kExitUsage, absl::InvalidArgumentError(absl::StrCat(
                                "cannot measure '", o.target,
                                "' on this machine: tune runs candidates here; tuning for another "
                                "device needs a worker of that kind")));
  }
  return RunLocalTune(o, *target, stop, out, err);
}

}  // namespace tunefarm::tools
