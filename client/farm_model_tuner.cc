#include "client/farm_model_tuner.h"

#include <filesystem>
#include <map>

#include "absl/strings/str_cat.h"
#include "client/cancel_on_stop.h"
#include "client/session_race_timer.h"
#include "client/token_file.h"
#include "farm_api/model_job.h"
#include "tuner/record_store.h"

namespace tunefarm::client {
namespace {

// A Winograd task's records fetched whole, at most this many: its space is small (a few dozen
// configs per tile), and the race needs each tile's best, not only the task's.
constexpr int kWinogradRecords = 2000;

driver::TunedTask TaskOf(const farm_api::ModelTaskStatus& t) {
  return {t.workload_key, t.weight, t.layer, t.trials_done, t.best_seconds};
}

driver::TunedModel::Ending EndingOf(farm_api::JobState state) {
  switch (state) {
    case farm_api::JobState::kSucceeded:
      return driver::TunedModel::Ending::kSucceeded;
    case farm_api::JobState::kCancelled:
      return driver::TunedModel::Ending::kStopped;
    default:
      return driver::TunedModel::Ending::kFailed;
  }
}

driver::TunedModel TunedModelOf(const farm_api::ModelJobStatus& job,
                                const tuner::LayoutChoice& layout) {
  driver::TunedModel tuned;
  tuned.ending = EndingOf(job.state);
  tuned.message = job.message;
  tuned.job_id = job.id;
  tuned.job_state = std::string(farm_api::JobStateName(job.state));
  tuned.device_key = job.device_key;
  tuned.target = job.target;
  tuned.trials_done = job.trials_done;
  tuned.layout = layout;
  for (const farm_api::ModelTaskStatus& t : job.tasks) tuned.tasks.push_back(TaskOf(t));
  return tuned;
}

}  // namespace

absl::StatusOr<FarmClient*> FarmModelTuner::Client() {
  if (client_ == nullptr) {
    absl::StatusOr<std::unique_ptr<FarmClient>> client = FarmClient::Connect(settings_.farm);
    if (!client.ok()) return client.status();
    client_ = *std::move(client);
  }
  return client_.get();
}

absl::StatusOr<target::Target> FarmModelTuner::ResolveTarget(tuner::TuningRequest& tuning) {
  if (tuning.device_key.empty()) {
    return absl::InvalidArgumentError("--tracker needs --key DEVICE_KEY");
  }
  return target::ParseTarget(tuning.target);
}

absl::StatusOr<driver::TunedModel> FarmModelTuner::Tune(const driver::ModelTuning& tuning,
                                                        const target::Target& /*target*/,
                                                        const driver::ModelTuneRequest& request,
                                                        driver::ModelTuneObserver& observer,
                                                        const std::atomic<bool>* stop) {
  farm_api::ModelJobSpec spec;
  static_cast<tuner::TuningRequest&>(spec) = request.tuning;
  spec.model_name = std::filesystem::path(request.model.file).filename().string();
  spec.tasks = farm_api::ModelTaskSpecsOf(tuning.tasks);
  spec.layout = tuning.layout;
  spec.parallel_tasks = settings_.parallel_tasks;
  spec.round_robin = request.round_robin;
  absl::StatusOr<FarmClient*> client = Client();
  if (!client.ok()) return client.status();
  absl::StatusOr<farm_api::ModelJobStatus> job = (*client)->SubmitModelJob(spec);
  if (!job.ok()) return job.status();
  observer.OnStart(absl::StrCat("model job ", job->id, ": tuning ", request.model.file, " on ",
                                target::DisplayTarget(job->target), " (", job->device_key,
                                ") through ", settings_.farm.tracker, ": ", job->tasks.size(),
                                " tasks, ", job->trials, " trials, tuner ", spec.tuner, ", ",
                                spec.round_robin ? "round-robin" : "gradient", " task scheduler"));
  if (!tuning.layouts_line.empty()) observer.OnNote(tuning.layouts_line);
  if (settings_.detach) {
    driver::TunedModel submitted = TunedModelOf(*job, tuning.layout);
    submitted.ending = driver::TunedModel::Ending::kSubmitted;
    return submitted;
  }

  // A stop request cancels the model job, whose final state then ends the watch.
  const CancelOnStop canceller(stop, [&] { (void)(*client)->CancelModelJob(job->id); });
  farm_api::ModelJobStatus last = *job;
  std::map<size_t, int> reported;  // task -> trials done when last reported
  std::string last_message;
  absl::Status watched = (*client)->WatchModelJob(job->id, [&](const farm_api::ModelJobStatus& m) {
    last = m;
    for (size_t i = 0; i < m.tasks.size(); ++i) {
      const farm_api::ModelTaskStatus& task = m.tasks[i];
      // A batch ended: its job stopped running with trials not reported yet.
      if (farm_api::IsFinished(task.state) && task.trials_done != reported[i]) {
        reported[i] = task.trials_done;
        observer.OnBatch(static_cast<int>(i), TaskOf(task), m.estimated_seconds);
      }
    }
    if (m.message != last_message && !farm_api::IsFinished(m.state)) {
      if (!m.message.empty()) observer.OnNote(absl::StrCat("model job ", m.id, ": ", m.message));
      last_message = m.message;
    }
    return true;
  });
  if (!watched.ok()) return watched;
  return TunedModelOf(last, tuning.layout);
}

absl::StatusOr<driver::TunedModel> FarmModelTuner::ModelJob(const std::string& job_id) {
  absl::StatusOr<FarmClient*> client = Client();
  if (!client.ok()) return client.status();
  absl::StatusOr<farm_api::ModelJobStatus> job = (*client)->GetModelJob(job_id);
  if (!job.ok()) return job.status();
  return TunedModelOf(*job, tuner::LayoutChoice());
}

absl::StatusOr<std::string> FarmModelTuner::BestRecords(const driver::TunedModel& tuned,
                                                        const std::string& scratch_db) {
  absl::StatusOr<FarmClient*> client = Client();
  if (!client.ok()) return client.status();
  absl::StatusOr<std::unique_ptr<tuner::RecordStore>> store = tuner::RecordStore::Open(scratch_db);
  if (!store.ok()) return store.status();
  for (const driver::TunedTask& task : tuned.tasks) {
    std::vector<tuner::Record> records;
    if (task.workload_key.rfind("conv2d_winograd_nchwc:", 0) == 0) {
      absl::StatusOr<std::vector<tuner::Record>> all = (*client)->ListRecords(
          task.workload_key, tuned.target, tuned.device_key, kWinogradRecords);
      if (!all.ok()) return all.status();
      records = *std::move(all);
    } else {
      absl::StatusOr<std::vector<BestRecord>> best =
          (*client)->QueryBest(task.workload_key, tuned.target, tuned.device_key);
      if (!best.ok()) return best.status();
      for (BestRecord& b : *best) records.push_back(std::move(b.record));
    }
    for (const tuner::Record& r : records) {
      absl::StatusOr<int64_t> id = (*store)->Insert(r);
      if (!id.ok()) return id.status();
    }
  }
  return scratch_db;
}

driver::ModuleRaceTimer FarmModelTuner::Timer(const target::Target& target,
                                              const tuner::TuningRequest& tuning, int rounds,
                                              std::string* why_not) {
  if (target.is_gpu()) {
    *why_not = "remote sessions run CPU models only; each GPU kernel's time is its record's";
    return nullptr;
  }
  absl::StatusOr<std::string> token = ReadTokenFile(settings_.farm.token_file);
  if (!token.ok()) {
    *why_not = std::string(token.status().message());
    return nullptr;
  }
  return SessionRaceTimer(
      FarmClientOptions{settings_.farm.tracker, *token, settings_.farm.tls_root_cert},
      tuning.device_key, tuning.measure.threads, rounds);
}

absl::Status FarmModelTuner::StoreLatency(const driver::TunedModel& tuned,
                                          const driver::EndToEndLatency& latency) {
  absl::StatusOr<FarmClient*> client = Client();
  if (!client.ok()) return client.status();
  absl::StatusOr<farm_api::ModelJobStatus> stored = (*client)->ReportModelLatency(
      tuned.job_id,
      farm_api::ModelLatency{latency.tuned_seconds, latency.untuned_seconds, latency.measured_by});
  return stored.status();
}

}  // namespace tunefarm::client
