// RunRemoteTuneCommand: `tunefarm tune --tracker HOST:PORT --key KEY ...` submits the tuning job
// to a farm and follows it with the local tune's progress line.
#include <fstream>
#include <optional>
#include <sstream>
#include <unistd.h>

#include "absl/strings/str_cat.h"
#include "client/cancel_on_stop.h"
#include "client/farm_client.h"
#include "client/remote_verification.h"
#include "compiler/target/target.h"
#include "driver/bindings.h"
#include "runtime/clock.h"
#include "tools/commands/exit_codes.h"
#include "tools/commands/tune_command.h"
#include "tools/commands/tune_progress.h"
#include "tools/commands/verified_summary.h"
#include "tuner/measure/verified_best.h"
#include "tuner/templates/template_registry.h"
#include "tuner/workload.h"

namespace tunefarm::tools {
namespace {

absl::StatusOr<farm_api::JobSpec> SpecOf(const TuneCommandOptions& o) {
  if (o.workload.empty() == o.script.empty()) {
    return absl::InvalidArgumentError("give exactly one of --workload KEY and --template FILE.te");
  }
  const std::string& key = o.key.empty() ? o.device_key : o.key;
  if (key.empty()) return absl::InvalidArgumentError("--tracker needs --key DEVICE_KEY");
  farm_api::JobSpec spec;
  spec.workload = o.workload;
  if (!o.workload.empty()) {
    // Refused here, before the tracker is asked, as a local tune refuses it.
    absl::StatusOr<tuner::Workload> w = tuner::ParseWorkloadKey(o.workload);
    if (!w.ok()) return w.status();
    absl::StatusOr<target::Target> target = target::ParseTarget(o.target);
    if (!target.ok()) return target.status();
    absl::StatusOr<std::unique_ptr<tuner::Task>> task = tuner::CreateTask(*w, *target);
    if (!task.ok()) return task.status();
    spec.workload = w->Key();
  }
  if (!o.script.empty()) {
    std::ifstream in(o.script, std::ios::binary);
    if (!in) return absl::NotFoundError(absl::StrCat("cannot read ", o.script));
    std::stringstream text;
    text << in.rdbuf();
    spec.script_source = text.str();
    spec.script_name = o.script;
    absl::StatusOr<driver::Bindings> bindings = driver::ParseBindings(o.bind);
    if (!bindings.ok()) return bindings.status();
    spec.bindings = *bindings;
  } else if (!o.bind.empty()) {
    return absl::InvalidArgumentError("--bind applies to --template only");
  }
  static_cast<tuner::TuningRequest&>(spec) = TuningRequestOf(o);
  spec.device_key = key;
  return spec;
}

tuner::TuneProgress ProgressOf(const farm_api::JobStatus& j) {
  tuner::TuneProgress p;
  p.trials_done = j.progress.trials_done;
  p.trials_total = j.trials;
  p.errors = j.progress.errors;
  for (const auto& [name, n] : j.progress.error_counts) {
    absl::StatusOr<tuner::ErrorKind> kind = tuner::ParseErrorKind(name);
    if (kind.ok()) p.error_counts[*kind] = n;
  }
  p.best_seconds = j.progress.best_seconds;
  p.best_gflops = j.progress.best_gflops;
  p.best_config_json = j.progress.best_config_json;
  const int64_t now_ms = runtime::SystemClock().NowMs();
  p.elapsed_seconds = j.created_ms > 0 ? (now_ms - j.created_ms) / 1e3 : 0;
  return p;
}

void PrintOutcome(const farm_api::JobStatus& j, std::ostream& out) {
  out << "job " << j.id << " " << farm_api::JobStateName(j.state);
  if (!j.message.empty()) out << ": " << j.message;
  out << "\ntrials=" << j.progress.trials_done << " errors=" << j.progress.errors;
  for (const auto& [kind, n] : j.progress.error_counts) out << " " << kind << "=" << n;
  out << "\n";
  if (j.progress.best_seconds <= 0) {
    out << "no config of " << j.workload_key << " ran successfully\n";
    return;
  }
  char buf[64];
  std::snprintf(buf, sizeof(buf), "median_ms=%.4f gflops=%.2f", j.progress.best_seconds * 1e3,
                j.progress.best_gflops);
  out << "best " << j.workload_key << " on " << j.device_key << ": " << buf << "\n"
      << "config=" << j.progress.best_config_json << "\n";
}

}  // namespace

int RunRemoteTuneCommand(const TuneCommandOptions& o, const std::atomic<bool>* stop,
                         std::ostream& out, std::ostream& err) {
  auto fail = [&err](int code, const absl::Status& s) {
    err << "tunefarm: " << s.message() << "\n";
    return code;
  };
  absl::StatusOr<farm_api::JobSpec> spec = SpecOf(o);
  if (!spec.ok()) return fail(kExitUsage, spec.status());
  absl::StatusOr<std::unique_ptr<client::FarmClient>> client =
      client::FarmClient::Connect(client::FarmAddress{o.tracker, o.token_file, o.tls_root_cert});
  if (!client.ok()) return fail(kExitUsage, client.status());
  absl::StatusOr<farm_api::JobStatus> job = (*client)->SubmitJob(*spec);
  // The tracker refusing the job as given (a key, a target no worker runs) is bad input too.
  if (!job.ok()) {
    return fail(ExitCodeOf(job.status()), job.status());
  }
  out << "job " << job->id << ": tuning " << job->workload_key << " on "
      << target::DisplayTarget(job->target) << " (" << job->device_key << ") through " << o.tracker
      << ", tuner " << job->tuner << ", " << job->trials << " trials\n"
      << std::flush;
  if (o.detach) return 0;

  // Ctrl-C cancels the job, whose final event then ends the watch.
  std::optional<client::CancelOnStop> canceller;
  canceller.emplace(stop, [&] { (void)(*client)->CancelJob(job->id); });
  TuneProgressPrinter printer(err, o.progress && ::isatty(STDERR_FILENO) == 1);
  farm_api::JobStatus last = *job;
  std::string last_message;
  absl::Status watched = (*client)->WatchJob(job->id, [&](const farm_api::JobStatus& j) {
    last = j;
    if (o.progress && j.progress.trials_done > 0) printer.Update(ProgressOf(j));
    if (j.message != last_message && !farm_api::IsFinished(j.state)) {
      printer.Finish();
      if (!j.message.empty()) err << "job " << j.id << ": " << j.message << "\n";
      last_message = j.message;
    }
    return true;
  });
  canceller.reset();
  printer.Finish();
  if (!watched.ok()) return fail(1, watched);
  PrintOutcome(last, out);
  const bool succeeded = last.state == farm_api::JobState::kSucceeded;
  if (o.verify && succeeded && last.progress.best_seconds > 0 && o.script.empty() &&
      spec->measure.cache_flush == tuner::CacheFlush::kNone) {
    std::string worker;
    absl::StatusOr<tuner::VerifiedBest> v = client::VerifyJobBestOnDevice(
        **client, client::FarmAddress{o.tracker, o.token_file, o.tls_root_cert}, last,
        MeasureOptionsOf(o).threads, &worker);
    if (v.ok()) {
      PrintVerifiedBest(*v, absl::StrCat("on worker ", worker, " of ", last.device_key), "", out);
    } else {
      out << "not verified: " << v.status().message() << "\n";
    }
  }
  return succeeded ? 0 : 1;
}

}  // namespace tunefarm::tools
