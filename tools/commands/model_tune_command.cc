// RunModelTuneCommand: flags into a driver::ModelTuneRequest, a local or a farm backend, and
// what driver::TuneModel reports printed as lines and a closing table.
#include "tools/commands/model_tune_command.h"

#include <cstdio>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "client/farm_model_tuner.h"
#include "driver/local_model_tuner.h"
#include "driver/model_tune.h"
#include "runtime/measure/interleaved_timing.h"
#include "tools/commands/exit_codes.h"
#include "tuner/model_latency_estimate.h"

namespace tunefarm::tools {

std::string MsText(double seconds) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f ms", seconds * 1e3);
  return buf;
}

void PrintTunedTasks(const std::vector<driver::TunedTask>& tasks, int trials_done,
                     const tuner::LayoutChoice& layout, std::ostream& out) {
  std::vector<tuner::TaskBest> bests;
  for (const driver::TunedTask& t : tasks) bests.push_back({t.layer, t.weight, t.best_seconds});
  const tuner::ModelEstimate estimate = tuner::EstimateModel(bests, layout);
  out << "task  layer  weight  trials  best           workload\n";
  for (size_t i = 0; i < tasks.size(); ++i) {
    const driver::TunedTask& t = tasks[i];
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

driver::ModelTuneRequest ModelTuneRequestOf(const ModelTuneOptions& o) {
  driver::ModelTuneRequest request;
  request.model.file = o.file;
  request.model.compile.input_shapes = o.compile.input_shapes;
  request.model.compile.disabled_passes = o.compile.disabled_passes;
  request.model.layouts = o.layouts;
  const TuneCommandOptions& t = o.tune;
  request.tuning = TuningRequestOf(t);
  if (t.tracker.empty()) {
    request.tuning.device_key = LocalTuneDeviceKey(t);
  } else if (!t.key.empty()) {
    request.tuning.device_key = t.key;
  }
  request.round_robin = o.round_robin;
  request.output = o.output;
  request.race = o.race;
  request.race_seconds = o.race_seconds;
  return request;
}

namespace {

// The command's lines: progress on `err` (with --progress), the rest on `out`.
class TunePrinter : public driver::ModelTuneObserver {
 public:
  TunePrinter(bool progress, std::ostream& out, std::ostream& err)
      : progress_(progress), out_(out), err_(err) {}
  void OnStart(const std::string& line) override { out_ << line << "\n" << std::flush; }
  void OnBatch(int index, const driver::TunedTask& task, double estimate_seconds) override {
    if (!progress_) return;
    err_ << "  task " << index << " (" << task.workload_key << "): " << task.trials
         << " trials, best "
         << (task.best_seconds > 0 ? MsText(task.best_seconds) : std::string("none"))
         << (estimate_seconds > 0 ? absl::StrCat("; model estimate ", MsText(estimate_seconds))
                                  : std::string())
         << "\n";
  }
  void OnNote(const std::string& line) override { out_ << line << "\n" << std::flush; }
  void OnTuned(const driver::TunedModel& tuned) override {
    if (tuned.ending == driver::TunedModel::Ending::kSubmitted) return;
    if (!tuned.job_id.empty()) {
      out_ << "model job " << tuned.job_id << " " << tuned.job_state;
      if (!tuned.message.empty()) out_ << ": " << tuned.message;
      out_ << "\n";
    }
    PrintTunedTasks(tuned.tasks, tuned.trials_done, tuned.layout, out_);
    if (tuned.job_id.empty() && !tuned.message.empty()) out_ << tuned.message << "\n";
    out_ << std::flush;
  }

 private:
  bool progress_;
  std::ostream& out_;
  std::ostream& err_;
};

// Without --output: the command that builds the tuned model (a farm's records stay on the
// tracker, where `model tune -o` reads them).
void PrintBuildHint(const ModelTuneOptions& o, const driver::TunedModel& tuned, std::ostream& out) {
  if (!tuned.job_id.empty()) {
    out << "the records are in the tracker's database (--output FILE builds and times the "
           "model on a worker of the key)\n";
    return;
  }
  out << "build it: tunefarm model build " << o.file;
  for (const auto& [name, dims] : o.compile.input_shapes) {
    out << " --input-shape " << name << "=" << absl::StrJoin(dims, ",");
  }
  out << " -o MODEL.so --db " << o.tune.db << " --device-key " << tuned.device_key;
  absl::StatusOr<target::Target> target = target::ParseTarget(tuned.target);
  if (target.ok() && target->is_gpu()) {
    out << " --target \"" << tuned.target << "\"";  // a GPU's kernels: no CPU race to run
  } else {
    out << " --race";
    if (o.tune.measure.threads > 0) out << " --threads " << o.tune.measure.threads;
  }
  out << "  (or tune with -o MODEL.so: build, race and time it here)\n";
}

std::unique_ptr<driver::ModelTuneBackend> BackendOf(const ModelTuneOptions& o) {
  const TuneCommandOptions& t = o.tune;
  if (t.tracker.empty()) return std::make_unique<driver::LocalModelTuner>(t.db);
  client::FarmTuningSettings farm;
  farm.farm = client::FarmAddress{t.tracker, t.token_file, t.tls_root_cert};
  farm.parallel_tasks = o.parallel_tasks;
  farm.detach = t.detach;
  return std::make_unique<client::FarmModelTuner>(std::move(farm));
}

}  // namespace

int RunModelTuneCommand(const ModelTuneOptions& o, const std::atomic<bool>* stop, std::ostream& out,
                        std::ostream& err) {
  auto fail = [&err](int code, const absl::Status& s) {
    err << "tunefarm: " << s.message() << "\n";
    return code;
  };
  const TuneCommandOptions& t = o.tune;
  if (t.trials <= 0 || t.batch_size <= 0 || t.measure.repeat <= 0) {
    return fail(kExitUsage,
                absl::InvalidArgumentError("--trials, --batch-size and --repeat must be positive"));
  }
  const bool farm = !t.tracker.empty();
  // Refused rather than ignored: they name a farm.
  for (const auto& [given, flag] :
       {std::pair{!farm && t.detach, "--detach"}, std::pair{!farm && !t.key.empty(), "--key"},
        std::pair{!farm && !t.token_file.empty(), "--token-file"}}) {
    if (given) {
      return fail(kExitUsage, absl::InvalidArgumentError(absl::StrCat(
                                  flag, " applies to a farm tune (with --tracker HOST:PORT)")));
    }
  }
  if (t.detach && !o.output.empty()) {
    return fail(kExitUsage, absl::InvalidArgumentError(
                                "--detach returns once the job is submitted; -o needs it to end"));
  }
  const driver::ModelTuneRequest request = ModelTuneRequestOf(o);
  const std::unique_ptr<driver::ModelTuneBackend> backend = BackendOf(o);
  TunePrinter printer(t.progress, out, err);
  absl::StatusOr<driver::ModelTuneResult> result =
      driver::TuneModel(request, *backend, printer, stop);
  if (!result.ok()) return fail(ExitCodeOf(result.status()), result.status());
  const driver::TunedModel& tuned = result->tuned;
  switch (tuned.ending) {
    case driver::TunedModel::Ending::kSubmitted:
      return kExitOk;
    case driver::TunedModel::Ending::kFailed:
      return kExitFailed;
    case driver::TunedModel::Ending::kStopped:
      // Here every finished trial is recorded and that is the run; a farm's cancelled job ended
      // short of its budget.
      return farm ? kExitFailed : kExitOk;
    case driver::TunedModel::Ending::kSucceeded:
      break;
  }
  if (o.output.empty()) {
    PrintBuildHint(o, tuned, out);
    return kExitOk;
  }
  if (const std::optional<driver::EndToEndLatency>& e = result->end_to_end; e.has_value()) {
    out << absl::StrFormat(
        "end to end on %s, %d alternating rounds: tuned %.3f ms, untuned %.3f ms: %s "
        "model_ms=%.4f\n",
        e->measured_by, e->tuned_over_untuned.rounds, e->tuned_seconds * 1e3,
        e->untuned_seconds * 1e3, runtime::measure::DescribeSpeedup(e->tuned_over_untuned),
        e->tuned_seconds * 1e3);
  }
  return kExitOk;
}

}  // namespace tunefarm::tools
