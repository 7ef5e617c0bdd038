// RunRemoteModelTuneCommand: `tunefarm model tune MODEL.onnx --tracker HOST:PORT --key KEY`
// extracts the model's tasks here, submits them as one model job, and follows it: a line each
// time a task's batch ends, the task table at the end.
#include <chrono>
#include <filesystem>
#include <map>
#include <thread>

#include "absl/strings/str_cat.h"
#include "tools/commands/farm_client.h"
#include "tools/commands/model_tune_command.h"

namespace tunefarm::tools {
namespace {

constexpr int kUsage = 2;

absl::StatusOr<tracker::ModelJobSpec> SpecOf(const ModelTuneOptions& o,
                                             const std::vector<tuner::ModelTask>& tasks) {
  const TuneCommandOptions& t = o.tune;
  tracker::ModelJobSpec spec;
  spec.model_name = std::filesystem::path(o.file).filename().string();
  for (const tuner::ModelTask& task : tasks) {
    spec.tasks.push_back({task.workload.Key(), static_cast<double>(task.groups.size())});
  }
  spec.target = o.compile.target;
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

}  // namespace

int RunRemoteModelTuneCommand(const ModelTuneOptions& o, const std::atomic<bool>* stop,
                              std::ostream& out, std::ostream& err) {
  auto fail = [&err](int code, const absl::Status& s) {
    err << "tunefarm: " << s.message() << "\n";
    return code;
  };
  const TuneCommandOptions& t = o.tune;
  if (t.key.empty() && t.device_key.empty()) {
    return fail(kUsage, absl::InvalidArgumentError("--tracker needs --key DEVICE_KEY"));
  }
  absl::StatusOr<std::vector<tuner::ModelTask>> tasks = ModelTuningTasks(o);
  if (!tasks.ok()) return fail(1, tasks.status());
  absl::StatusOr<tracker::ModelJobSpec> spec = SpecOf(o, *tasks);
  if (!spec.ok()) return fail(kUsage, spec.status());
  absl::StatusOr<std::unique_ptr<FarmClient>> client =
      FarmClient::Connect(FarmAddress{t.tracker, t.token_file, t.tls_root_cert});
  if (!client.ok()) return fail(kUsage, client.status());
  absl::StatusOr<tracker::ModelJobStatus> job = (*client)->SubmitModelJob(*spec);
  if (!job.ok()) {
    return fail(job.status().code() == absl::StatusCode::kInvalidArgument ? kUsage : 1,
                job.status());
  }
  out << "model job " << job->id << ": tuning " << o.file << " on " << job->target << " ("
      << job->device_key << ") through " << t.tracker << ": " << job->tasks.size() << " tasks, "
      << job->trials << " trials, tuner " << t.tuner << ", "
      << (o.round_robin ? "round-robin" : "gradient") << " task scheduler\n"
      << std::flush;
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
  tracker::ModelJobStatus last = *job;
  std::map<size_t, int> reported;  // task -> trials done when last printed
  std::string last_message;
  absl::Status watched = (*client)->WatchModelJob(job->id, [&](const tracker::ModelJobStatus& m) {
    last = m;
    for (size_t i = 0; i < m.tasks.size() && t.progress; ++i) {
      const tracker::ModelTaskStatus& task = m.tasks[i];
      // A batch ended: its job stopped running with trials the last line did not show.
      if (tracker::IsFinished(task.state) && task.trials_done != reported[i]) {
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
    if (m.message != last_message && !tracker::IsFinished(m.state)) {
      if (!m.message.empty()) err << "model job " << m.id << ": " << m.message << "\n";
      last_message = m.message;
    }
    return true;
  });
  watching = false;
  canceller.join();
  if (!watched.ok()) return fail(1, watched);

  out << "model job " << last.id << " " << tracker::JobStateName(last.state);
  if (!last.message.empty()) out << ": " << last.message;
  out << "\n";
  std::vector<TunedTaskLine> lines;
  for (const tracker::ModelTaskStatus& task : last.tasks) {
    lines.push_back({task.workload_key, task.weight, task.trials_done, task.best_seconds});
  }
  PrintTunedTasks(lines, last.trials_done, out);
  out << "the records are in the tracker's database; build with them there: tunefarm model build "
      << o.file << " -o MODEL.so --target '" << last.target << "' --db TRACKER.db --device-key "
      << last.device_key << "\n";
  return last.state == tracker::JobState::kSucceeded ? 0 : 1;
}

}  // namespace tunefarm::tools
