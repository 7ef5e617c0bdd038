// RunRemoteModelTuneCommand: `tunefarm model tune MODEL.onnx --tracker HOST:PORT --key KEY`
// extracts the model's tasks here, submits them as one model job, and follows it: a line each
// time a task's batch ends, the task table at the end.
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <thread>
#include <unistd.h>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "client/farm_client.h"
#include "client/remote_session.h"
#include "client/session_race_timer.h"
#include "client/token_file.h"
#include "compiler/target/target.h"
#include "driver/algorithm_race.h"
#include "runtime/measure/interleaved_timing.h"
#include "runtime/time_evaluator.h"
#include "tools/commands/exit_codes.h"
#include "tools/commands/model_build_command.h"
#include "tools/commands/model_tune_command.h"
#include "tuner/record_store.h"

namespace tunefarm::tools {
namespace {

absl::StatusOr<farm_api::ModelJobSpec> SpecOf(const ModelTuneOptions& o,
                                              const driver::ModelTuning& tuning) {
  const TuneCommandOptions& t = o.tune;
  farm_api::ModelJobSpec spec;
  spec.model_name = std::filesystem::path(o.file).filename().string();
  spec.tasks = farm_api::ModelTaskSpecsOf(tuning.tasks);
  spec.layout = tuning.layout;
  spec.target = t.target;
  spec.device_key = t.key.empty() ? t.device_key : t.key;
  spec.trials = t.trials;
  spec.batch_size = t.batch_size;
  spec.parallel_tasks = o.parallel_tasks;
  spec.tuner = t.tuner;
  spec.seed = SeedOf(t);
  spec.measure = MeasureOptionsOf(t);
  spec.priority = t.priority;
  spec.transfer = t.transfer;
  spec.round_robin = o.round_robin;
  return spec;
}

// Builds the model (with the records in `db` under the model job's device key when `db` is
// set) into `output`; errors carry the build's one-line reason.
absl::Status BuildModule(const ModelTuneOptions& o, const farm_api::ModelJobStatus& job,
                         const std::string& db, const std::string& output,
                         const std::map<std::string, int64_t>& algorithms = {}) {
  ModelBuildOptions build;
  build.file = o.file;
  build.output = output;
  build.target = o.tune.target;
  build.compile.input_shapes = o.compile.input_shapes;
  build.compile.disabled_passes = o.compile.disabled_passes;
  if (!db.empty()) {
    build.compile.db = db;
    build.compile.device_key = job.device_key;
    build.compile.algorithms = algorithms;
  }
  std::ostringstream out, err;
  if (RunModelBuildCommand(build, out, err) != 0) {
    std::string reason = err.str();
    while (!reason.empty() && reason.back() == '\n') reason.pop_back();
    return absl::InternalError(reason);
  }
  return absl::OkStatus();
}

// A Winograd task's records fetched whole, at most this many: its space is small (a few dozen
// configs per tile), and the race needs each tile's best, not only the task's.
constexpr int kWinogradRecords = 2000;

// The tracker's best record of each task, and every record of each Winograd task (each tile's
// best is a rival the race may time), in a scratch database the build reads.
absl::Status FetchBestRecords(client::FarmClient& client, const farm_api::ModelJobStatus& job,
                              const std::string& db) {
  absl::StatusOr<std::unique_ptr<tuner::RecordStore>> store = tuner::RecordStore::Open(db);
  if (!store.ok()) return store.status();
  for (const farm_api::ModelTaskStatus& task : job.tasks) {
    std::vector<tuner::Record> records;
    if (task.workload_key.rfind("conv2d_winograd_nchwc:", 0) == 0) {
      absl::StatusOr<std::vector<tuner::Record>> all =
          client.ListRecords(task.workload_key, job.target, job.device_key, kWinogradRecords);
      if (!all.ok()) return all.status();
      records = *std::move(all);
    } else {
      absl::StatusOr<std::vector<client::BestRecord>> best =
          client.QueryBest(task.workload_key, job.target, job.device_key);
      if (!best.ok()) return best.status();
      for (client::BestRecord& b : *best) records.push_back(std::move(b.record));
    }
    for (const tuner::Record& r : records) {
      absl::StatusOr<int64_t> id = (*store)->Insert(r);
      if (!id.ok()) return id.status();
    }
  }
  return absl::OkStatus();
}

// The tuned and the untuned module timed on one worker of the key in 10 alternating rounds (one
// repeat of at least 100 ms each): medians {tuned, untuned} and the tuned's time over the
// untuned's with its 95 % CI.
struct EndToEnd {
  double tuned_seconds = 0;
  double untuned_seconds = 0;
  runtime::measure::RatioInterval tuned_over_untuned;
};
absl::StatusOr<EndToEnd> TimeOnDevice(const ModelTuneOptions& o,
                                      const farm_api::ModelJobStatus& job, const std::string& tuned,
                                      const std::string& untuned, std::string* worker) {
  const TuneCommandOptions& t = o.tune;
  absl::StatusOr<std::string> token = client::ReadTokenFile(t.token_file);
  if (!token.ok()) return token.status();
  absl::StatusOr<std::unique_ptr<client::RemoteSession>> session = client::RemoteSession::Open(
      client::FarmClientOptions{t.tracker, *token, t.tls_root_cert}, job.device_key,
      /*wait_s=*/120);
  if (!session.ok()) return session.status();
  *worker = (*session)->worker_id();
  client::SessionTiming slot;
  slot.repeat = 1;
  slot.min_repeat_ms = std::max(t.min_repeat_ms, 100);
  slot.threads = t.threads;
  std::string ids[2];
  const std::string* paths[2] = {&tuned, &untuned};
  for (int i = 0; i < 2; ++i) {
    absl::StatusOr<std::string> bytes = client::ReadModuleFile(*paths[i]);
    if (!bytes.ok()) return bytes.status();
    absl::StatusOr<client::UploadedModule> module =
        (*session)->Upload(*bytes, std::filesystem::path(*paths[i]).filename().string());
    if (!module.ok()) return module.status();
    ids[i] = module->module_id;
  }
  constexpr int kRounds = 10;
  std::vector<double> seconds[2];
  for (int round = 0; round < kRounds; ++round) {
    for (int k = 0; k < 2; ++k) {
      const int i = round % 2 == 0 ? k : 1 - k;  // reversed every other round
      absl::StatusOr<std::vector<double>> one = (*session)->TimeModel(ids[i], slot);
      if (!one.ok()) return one.status();
      if (one->empty()) return absl::InternalError("the worker returned no timing");
      seconds[i].push_back(one->front());
    }
  }
  absl::StatusOr<runtime::measure::RatioInterval> ratio =
      runtime::measure::PairedRatio(seconds[1], seconds[0]);
  if (!ratio.ok()) return ratio.status();
  return EndToEnd{runtime::Summarize(seconds[0]).median, runtime::Summarize(seconds[1]).median,
                  *ratio};
}

// With --race (the default): each conv's close rival algorithms raced in the model on a worker
// of the key; the winners, for the build. A race that cannot run (no worker within two minutes,
// a lost session) leaves the records' choices, and says why; a build that fails is an error.
absl::StatusOr<std::map<std::string, int64_t>> RaceOnDevice(const ModelTuneOptions& o,
                                                            const farm_api::ModelJobStatus& job,
                                                            const std::string& db,
                                                            std::ostream& out) {
  if (!o.race) return std::map<std::string, int64_t>();
  const TuneCommandOptions& t = o.tune;
  absl::StatusOr<target::Target> target = target::ParseTarget(t.target);
  if (!target.ok()) return target.status();
  // The race picks between CPU convolution algorithms (direct or Winograd); a GPU build has one.
  if (target->is_gpu()) return std::map<std::string, int64_t>();
  absl::StatusOr<std::string> token = client::ReadTokenFile(t.token_file);
  if (!token.ok()) return token.status();
  driver::ModelCompileOptions compile;
  compile.input_shapes = o.compile.input_shapes;
  compile.disabled_passes = o.compile.disabled_passes;
  compile.db = db;
  compile.device_key = job.device_key;
  driver::RaceOptions race;
  race.budget_s = o.race_seconds;
  bool timer_failed = false;
  const driver::ModuleRaceTimer on_device = client::SessionRaceTimer(
      client::FarmClientOptions{t.tracker, *token, t.tls_root_cert}, job.device_key, t.threads);
  const driver::ModuleRaceTimer timer = [&](const std::string& a, const std::string& b) {
    absl::StatusOr<driver::RaceTimes> times = on_device(a, b);
    timer_failed = !times.ok();
    return times;
  };
  absl::StatusOr<driver::RaceResult> raced =
      driver::RaceAlgorithms(o.file, compile, *target, timer, race, out);
  if (!raced.ok()) {
    if (!timer_failed) return raced.status();
    out << "race: stopped, the records' choices stand: " << raced.status().message() << "\n";
    return std::map<std::string, int64_t>();
  }
  out << "race on a worker of '" << job.device_key << "': " << raced->challenges
      << " rivals timed in the model, " << raced->changed << " conv workloads changed algorithm\n"
      << std::flush;
  return std::move(raced->algorithms);
}

// The model job's last step, here where the model is: the module built with the farm's best
// records (written to --output) and the untuned build, both timed end to end on a worker of the
// key, and the latency stored with the model job.
absl::Status MeasureModel(const ModelTuneOptions& o, client::FarmClient& client,
                          const farm_api::ModelJobStatus& job, std::ostream& out) {
  const std::filesystem::path scratch =
      std::filesystem::temp_directory_path() / absl::StrCat("tf-model-", job.id, "-", ::getpid());
  std::filesystem::create_directories(scratch);
  struct Cleanup {
    std::filesystem::path dir;
    ~Cleanup() {
      std::error_code ec;
      std::filesystem::remove_all(dir, ec);
    }
  } cleanup{scratch};
  const std::string db = (scratch / "best.db").string();
  const std::string untuned = (scratch / "untuned.so").string();
  if (absl::Status s = FetchBestRecords(client, job, db); !s.ok()) {
    return absl::Status(s.code(), absl::StrCat("fetching the best records: ", s.message()));
  }
  absl::StatusOr<std::map<std::string, int64_t>> algorithms = RaceOnDevice(o, job, db, out);
  if (!algorithms.ok()) return algorithms.status();
  if (absl::Status s = BuildModule(o, job, db, o.output, *algorithms); !s.ok()) return s;
  if (absl::Status s = BuildModule(o, job, "", untuned); !s.ok()) return s;
  out << "wrote " << o.output << " (built with the best record of each task)\n" << std::flush;
  if (absl::StatusOr<target::Target> target = target::ParseTarget(o.tune.target);
      target.ok() && target->is_gpu()) {
    // A remote session runs models on the CPU graph executor; a GPU model's latency is the sum
    // of its kernels' records until sessions run GPU modules.
    out << "not timed end to end on a worker: remote sessions run CPU models only; each GPU "
           "kernel's time is its record's\n";
    return absl::OkStatus();
  }
  std::string worker;
  absl::StatusOr<EndToEnd> seconds = TimeOnDevice(o, job, o.output, untuned, &worker);
  if (!seconds.ok()) {
    return absl::Status(seconds.status().code(),
                        absl::StrCat("timing the model on a worker of '", job.device_key,
                                     "': ", seconds.status().message()));
  }
  const farm_api::ModelLatency latency{seconds->tuned_seconds, seconds->untuned_seconds, worker};
  absl::StatusOr<farm_api::ModelJobStatus> stored = client.ReportModelLatency(job.id, latency);
  if (!stored.ok()) return stored.status();
  out << absl::StrFormat(
      "end to end on %s, 10 alternating rounds: tuned %.3f ms, untuned %.3f ms: %s model_ms=%.4f\n",
      worker, latency.measured_seconds * 1e3, latency.untuned_seconds * 1e3,
      runtime::measure::DescribeSpeedup(seconds->tuned_over_untuned),
      latency.measured_seconds * 1e3);
  return absl::OkStatus();
}

}  // namespace

int RunRemoteModelTuneCommand(const ModelTuneOptions& o, const std::atomic<bool>* stop,
                              std::ostream& out, std::ostream& err) {
  auto fail = [&err](int code, const absl::Status& s) {
    err << "tunefarm: " << s.message() << "\n";
    return code;
  };
  const TuneCommandOptions& t = o.tune;
  if (t.key.empty() && t.device_key.empty()) {
    return fail(kExitUsage, absl::InvalidArgumentError("--tracker needs --key DEVICE_KEY"));
  }
  // The tasks are the model's for the target as this machine reads it (a bare `llvm`: this CPU);
  // the tracker files the records under its canonical string.
  absl::StatusOr<target::Target> target = target::ParseTarget(t.target);
  if (!target.ok()) return fail(kExitUsage, target.status());
  absl::StatusOr<driver::ModelTuning> tasks = driver::ModelTuningTasks(TuningRequestOf(o), *target);
  if (!tasks.ok()) return fail(1, tasks.status());
  absl::StatusOr<farm_api::ModelJobSpec> spec = SpecOf(o, *tasks);
  if (!spec.ok()) return fail(kExitUsage, spec.status());
  absl::StatusOr<std::unique_ptr<client::FarmClient>> client =
      client::FarmClient::Connect(client::FarmAddress{t.tracker, t.token_file, t.tls_root_cert});
  if (!client.ok()) return fail(kExitUsage, client.status());
  absl::StatusOr<farm_api::ModelJobStatus> job = (*client)->SubmitModelJob(*spec);
  if (!job.ok()) {
    return fail(ExitCodeOf(job.status()), job.status());
  }
  out << "model job " << job->id << ": tuning " << o.file << " on "
      << target::DisplayTarget(job->target) << " (" << job->device_key << ") through " << t.tracker
      << ": " << job->tasks.size() << " tasks, " << job->trials << " trials, tuner " << t.tuner
      << ", " << (o.round_robin ? "round-robin" : "gradient") << " task scheduler\n";
  if (!tasks->layouts_line.empty()) out << tasks->layouts_line << "\n";
  out << std::flush;
  if (t.detach) return 0;

  // Ctrl-C cancels the model job: a watcher thread turns the flag into CancelModelJob, whose
  // final state then ends the watch.
  std::atomic<bool> watching{true};
  std::thread canceller([&] {
    while (watching.load()) {
      if (stop != nullptr && stop->load()) {
        (void)(*client)->CancelModelJob(job->id);
        return;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
  });
  farm_api::ModelJobStatus last = *job;
  std::map<size_t, int> reported;  // task -> trials done when last printed
  std::string last_message;
  absl::Status watched = (*client)->WatchModelJob(job->id, [&](const farm_api::ModelJobStatus& m) {
    last = m;
    for (size_t i = 0; i < m.tasks.size() && t.progress; ++i) {
      const farm_api::ModelTaskStatus& task = m.tasks[i];
      // A batch ended: its job stopped running with trials the last line did not show.
      if (farm_api::IsFinished(task.state) && task.trials_done != reported[i]) {
        reported[i] = task.trials_done;
        err << "  task " << i << " (" << task.workload_key << "): " << task.trials_done
            << " trials, best "
            << (task.best_seconds > 0 ? MsText(task.best_seconds) : std::string("none"))
            << (m.estimated_seconds > 0
                    ? absl::StrCat("; model estimate ", MsText(m.estimated_seconds))
                    : std::string())
            << "\n";
      }
    }
    if (m.message != last_message && !farm_api::IsFinished(m.state)) {
      if (!m.message.empty()) err << "model job " << m.id << ": " << m.message << "\n";
      last_message = m.message;
    }
    return true;
  });
  watching = false;
  canceller.join();
  if (!watched.ok()) return fail(1, watched);

  out << "model job " << last.id << " " << farm_api::JobStateName(last.state);
  if (!last.message.empty()) out << ": " << last.message;
  out << "\n";
  std::vector<TunedTaskLine> lines;
  for (const farm_api::ModelTaskStatus& task : last.tasks) {
    lines.push_back(
        {task.workload_key, task.weight, task.layer, task.trials_done, task.best_seconds});
  }
  PrintTunedTasks(lines, last.trials_done, tasks->layout, out);
  if (last.state != farm_api::JobState::kSucceeded) return 1;
  if (o.output.empty()) {
    out << "the records are in the tracker's database (--output FILE builds and times the "
           "model on a worker of the key)\n";
    return 0;
  }
  if (absl::Status s = MeasureModel(o, **client, last, out); !s.ok()) return fail(1, s);
  return 0;
}

}  // namespace tunefarm::tools
