// JobManager: the jobs in memory (spec and status), the job engine that runs them, and the jobs
// table that outlives the process. A monitor thread keeps each unfinished job's "waiting"
// message current and writes again a state the table missed.
#include "tracker/job_manager.h"

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <map>
#include <mutex>
#include <optional>
#include <thread>
#include <tuple>
#include <utility>

#include "absl/strings/str_cat.h"
#include "spdlog/spdlog.h"
#include "tracker/job_engine.h"
#include "tracker/job_runner.h"
#include "tracker/job_table.h"
#include "tracker/live_jobs.h"
#include "tracker/shared_record_store.h"
#include "tracker/target_fit.h"
#include "tuner/search/strategy_factory.h"

namespace tunefarm::tracker {
namespace {

constexpr auto kMonitorPeriod = std::chrono::milliseconds(200);
// How often a job state the table missed is written again (each try may wait out the table's
// busy timeout, under the jobs lock, so not at every monitor pass).
constexpr auto kUnsavedRetryPeriod = std::chrono::seconds(1);
// How long Cancel waits for a running job to wind down (its builds and leases withdrawn), so
// that it can usually return the job as cancelled; past that it returns the job as it stands (it
// still ends cancelled).
constexpr auto kCancelWait = std::chrono::seconds(10);
// Statuses of jobs that ended before this start kept counted (a few MB at most).
constexpr size_t kEndedStatusesKept = 10000;

struct Job {
  farm_api::JobSpec spec;
  farm_api::JobStatus status;
  bool cancel_requested = false;
  // The jobs table missed this job's last state (a write failed, e.g. the database was locked):
  // the monitor writes it again until it lands, so the table never keeps saying "running" for a
  // job that ended.
  bool unsaved = false;
  std::chrono::steady_clock::time_point last_save_attempt;
};

}  // namespace

struct JobManager::Impl {
  Impl(JobManagerOptions o, Dispatcher& d, JobTable& t, std::unique_ptr<tuner::RecordStore> r)
      : options(std::move(o)),
        dispatcher(d),
        table(t),
        store(std::move(r)),
        live("job", options.clock) {}

  const JobManagerOptions options;
  Dispatcher& dispatcher;
  JobTable& table;
  // The one record store connection: the engine's jobs write through it, and the manager reads
  // the records of jobs that are not in memory (finished before this tracker started).
  SharedRecordStore store;
  std::unique_ptr<JobEngine> engine;  // made once Impl exists: its callbacks come here

  LiveJobs<Job> live;  // the jobs in memory: their lock, versions and ids
  std::condition_variable monitor_cv;
  // Jobs that ended before this tracker started, each counted from its records once: a listing
  // of finished jobs (the dashboard's, every few seconds) would otherwise count them every time.
  // They do not change, and Extend brings a job back into `jobs`, which is looked up first.
  std::map<std::string, farm_api::JobStatus> ended;
  std::thread monitor;
  std::function<void(const std::string&)> end_listener;

  // --- under `live.mu` ---
  void Persist(Job& job) {
    job.last_save_attempt = std::chrono::steady_clock::now();
    absl::Status s = table.UpdateState(job.status.id, job.status.state, job.status.message,
                                       job.status.updated_ms);
    if (s.ok()) {
      if (job.unsaved) spdlog::info("job {}: its state is stored again", job.status.id);
      job.unsaved = false;
      return;
    }
    if (!job.unsaved) {
      spdlog::error("job {}: cannot store its state (retrying): {}", job.status.id, s.ToString());
    }
    job.unsaved = true;
  }

  void SetState(Job& job, farm_api::JobState state, std::string message) {
    job.status.state = state;
    job.status.message = std::move(message);
    live.Touch(job);
    Persist(job);
  }

  std::string DesiredMessage(const Job& job) const {
    if (dispatcher.WorkersFor(job.spec.device_key) == 0) {
      return absl::StrCat("waiting: no worker with device key '", job.spec.device_key,
                          "' is connected");
    }
    return "";
  }

  // A job whose every trial failed has nothing to publish: it failed, with its commonest error
  // kind and that kind's latest message.
  std::string NoTrialSucceeded(const std::string& id, const farm_api::JobProgress& p) {
    std::string kind;
    int count = 0;
    for (const auto& [name, n] : p.error_counts) {
      if (n > count) std::tie(kind, count) = std::tie(name, n);
    }
    std::string message;
    absl::StatusOr<std::vector<tuner::Record>> history =
        store.With([&](tuner::RecordStore& records) { return records.JobHistory(id); });
    if (history.ok()) {
      for (const tuner::Record& r : *history) {
        if (tuner::ErrorKindName(r.error_kind) == kind) message = r.error_message;
      }
    }
    return absl::StrCat("no trial succeeded: ", count, " of ", p.trials_done, " ended ", kind,
                        message.empty() ? "" : absl::StrCat(" (", message, ")"));
  }

  // --- the engine's callbacks (engine threads, no engine lock held) ---
  void OnProgress(const std::string& id, const farm_api::JobProgress& p) {
    std::lock_guard<std::mutex> lock(live.mu);
    auto it = live.entries.find(id);
    if (it == live.entries.end()) return;
    it->second->status.progress = p;
    live.Touch(*it->second);
  }

  void OnEnd(const std::string& id, const JobEnd& end) {
    // The records are read before `mu` is taken, never under it (the store has a lock of its
    // own, and whoever holds that must never wait for this one).
    std::optional<std::string> nothing_succeeded;
    if (end.status.ok()) {
      farm_api::JobProgress progress;
      {
        std::lock_guard<std::mutex> lock(live.mu);
        auto it = live.entries.find(id);
        if (it == live.entries.end()) return;
        progress = it->second->status.progress;
      }
      if (progress.trials_done > 0 && progress.best_seconds <= 0) {
        nothing_succeeded = NoTrialSucceeded(id, progress);
      }
    }
    std::lock_guard<std::mutex> lock(live.mu);
    auto it = live.entries.find(id);
    if (it == live.entries.end()) return;
    Job& job = *it->second;
    if (job.cancel_requested) {
      SetState(job, farm_api::JobState::kCancelled, "cancelled");
    } else if (live.shutting_down) {
      // Stopped by the tracker going down: the job stays running in the table and resumes with
      // the next start.
    } else if (!end.paused.empty() && end.status.ok()) {
      SetState(job, farm_api::JobState::kPaused,
               absl::StrCat("paused: ", end.paused, "; it resumes when a worker of '",
                            job.spec.device_key, "' registers, or cancel it"));
    } else if (!end.status.ok()) {
      SetState(job, farm_api::JobState::kFailed, std::string(end.status.message()));
    } else if (nothing_succeeded.has_value()) {
      SetState(job, farm_api::JobState::kFailed, *std::move(nothing_succeeded));
    } else {
      SetState(job, farm_api::JobState::kSucceeded,
               end.early_stopped ? "early stopped"
               : end.exhausted   ? "space exhausted"
                                 : "done");
    }
    if (end_listener) end_listener(id);
    monitor_cv.notify_all();
  }

  void MonitorLoop() {
    std::unique_lock<std::mutex> lock(live.mu);
    while (!live.shutting_down) {
      for (auto& [id, job] : live.entries) {
        if (job->unsaved &&
            std::chrono::steady_clock::now() - job->last_save_attempt >= kUnsavedRetryPeriod) {
          Persist(*job);
        }
        // A paused job's message is why it paused.
        if (farm_api::IsFinished(job->status.state) || job->cancel_requested ||
            job->status.state == farm_api::JobState::kPaused) {
          continue;
        }
        std::string message = DesiredMessage(*job);
        if (message == job->status.message) continue;
        job->status.message = std::move(message);
        live.Touch(*job);
        Persist(*job);
      }
      monitor_cv.wait_for(lock, kMonitorPeriod);
    }
  }

  // The job as it stands, by id: from memory when it is there (newest), else from its row.
  absl::StatusOr<farm_api::JobStatus> StatusOf(const std::string& id) {
    if (std::optional<farm_api::JobStatus> known = KnownStatus(id)) return *std::move(known);
    absl::StatusOr<JobRow> row = table.Get(id);
    if (!row.ok()) return row.status();
    return EndedStatus(*row);
  }

  // The same for a row just read from the table.
  farm_api::JobStatus CurrentStatus(const JobRow& row) {
    if (std::optional<farm_api::JobStatus> known = KnownStatus(row.status.id))
      return *std::move(known);
    return EndedStatus(row);
  }

  std::optional<farm_api::JobStatus> KnownStatus(const std::string& id) {
    std::lock_guard<std::mutex> lock(live.mu);
    if (auto it = live.entries.find(id); it != live.entries.end()) return it->second->status;
    if (auto it = ended.find(id); it != ended.end()) return it->second;
    return std::nullopt;
  }

  // A job not in memory (it ended before this tracker started), kept in `ended` once counted.
  farm_api::JobStatus EndedStatus(const JobRow& row) {
    bool counted = false;
    farm_api::JobStatus s = StatusFromRow(row, &counted);
    if (counted && farm_api::IsFinished(s.state)) {
      std::lock_guard<std::mutex> lock(live.mu);
      if (ended.size() >= kEndedStatusesKept) ended.erase(ended.begin());
      ended.emplace(s.id, s);
    }
    return s;
  }

  // The row's status with its progress counted from the records; `counted` says whether they
  // could be read (the status shows no progress when not).
  farm_api::JobStatus StatusFromRow(const JobRow& row, bool* counted = nullptr) {
    farm_api::JobStatus s = row.status;
    s.version = 1;
    // Its best is among records timed as it times them; a spec that no longer parses (a job of
    // an older tracker) timed warm, as every job did then.
    absl::StatusOr<farm_api::JobSpec> spec = farm_api::JobSpecFromJson(row.spec_json);
    const tuner::CacheFlush cache_flush =
        spec.ok() ? runtime::measure::TimedFlush(spec->measure) : tuner::CacheFlush::kNone;
    absl::StatusOr<farm_api::JobProgress> p = store.With([&](tuner::RecordStore& records) {
      return JobProgressFromStore(records, s.id, s.workload_key, s.target, s.device_key,
                                  cache_flush);
    });
    if (p.ok()) {
      s.progress = *p;
    } else {
      spdlog::warn("job {}: cannot read its records: {}", s.id, p.status().ToString());
    }
    if (counted != nullptr) *counted = p.ok();
    return s;
  }

  // Adds a job found unfinished in the table (the tracker was stopped or killed) to the queue.
  void Resume(const JobRow& row) {
    absl::StatusOr<farm_api::JobSpec> spec = farm_api::JobSpecFromJson(row.spec_json);
    if (!spec.ok()) {
      absl::Status s = table.UpdateState(row.status.id, farm_api::JobState::kFailed,
                                         absl::StrCat("cannot resume: ", spec.status().message()),
                                         options.clock->NowMs());
      if (!s.ok()) spdlog::error("job {}: {}", row.status.id, s.ToString());
      return;
    }
    auto job = std::make_shared<Job>();
    job->spec = *std::move(spec);
    job->status = StatusFromRow(row);
    std::lock_guard<std::mutex> lock(live.mu);
    job->status.state = farm_api::JobState::kRunning;
    job->status.message = DesiredMessage(*job);
    job->status.updated_ms = options.clock->NowMs();
    Persist(*job);
    spdlog::info("job {}: resuming ({} of {} trials recorded)", row.status.id,
                 job->status.progress.trials_done, job->status.trials);
    live.entries[row.status.id] = job;
    engine->Start(row.status.id, job->spec, nullptr);
  }

  void Shutdown() {
    {
      std::lock_guard<std::mutex> lock(live.mu);
      live.shutting_down = true;
      monitor_cv.notify_all();
      live.changed.notify_all();
    }
    // Not under `live.mu`: the engine's threads may be waiting for it in a callback.
    if (engine != nullptr) engine->Shutdown();
    if (monitor.joinable()) monitor.join();
  }
};

absl::StatusOr<std::unique_ptr<JobManager>> JobManager::Create(
    JobManagerOptions options, Dispatcher& dispatcher, LeaseSender& sender, JobTable& table,
    std::unique_ptr<tuner::RecordStore> records) {
  if (records == nullptr) return absl::InvalidArgumentError("the job manager needs a record store");
  if (options.max_jobs < 1 || options.max_trials < 1 || options.event_threads < 1) {
    return absl::InvalidArgumentError("max_jobs, max_trials and event_threads must be >= 1");
  }
  absl::StatusOr<std::vector<JobRow>> unfinished = table.LoadUnfinished();
  if (!unfinished.ok()) return unfinished.status();
  auto impl = std::make_unique<Impl>(std::move(options), dispatcher, table, std::move(records));
  Impl* raw = impl.get();
  JobEngineOptions eo;
  eo.event_threads = raw->options.event_threads;
  eo.build_threads = raw->options.build_parallelism;
  eo.build_placement = raw->options.build_placement;
  eo.work_dir_parent = raw->options.work_dir_parent;
  eo.max_artifact_bytes = raw->options.max_artifact_bytes;
  eo.metrics = raw->options.metrics;
  eo.clock = raw->options.clock;
  eo.on_progress = [raw](const std::string& id, const farm_api::JobProgress& p) {
    raw->OnProgress(id, p);
  };
  eo.on_end = [raw](const std::string& id, const JobEnd& end) { raw->OnEnd(id, end); };
  raw->engine = std::make_unique<JobEngine>(std::move(eo), dispatcher, sender, raw->store);
  for (const JobRow& row : *unfinished) raw->Resume(row);
  raw->monitor = std::thread([raw] { raw->MonitorLoop(); });
  return std::unique_ptr<JobManager>(new JobManager(std::move(impl)));
}

JobManager::JobManager(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

JobManager::~JobManager() { impl_->Shutdown(); }

absl::StatusOr<std::unique_ptr<tuner::Task>> JobManager::CheckedTask(
    const farm_api::JobSpec& spec) const {
  if (absl::Status s = ValidateJobSpec(spec, impl_->options.max_trials); !s.ok()) return s;
  absl::StatusOr<std::unique_ptr<tuner::Task>> task = MakeJobTask(spec);
  if (!task.ok()) return task.status();
  const std::vector<farm_api::WorkerSnapshot> workers = impl_->dispatcher.Workers(spec.device_key);
  if (absl::Status s = CheckWorkersRun((*task)->target(), spec.device_key, workers); !s.ok()) {
    return s;
  }
  // No trial is spent on a launch the key's devices would refuse: the space keeps the configs
  // within what they registered (a device joining later with smaller limits refuses the launch,
  // which is recorded as a runtime error naming the limit).
  if (std::optional<target::GpuLimits> reported = ReportedGpuLimits(workers);
      reported && (*task)->target().is_gpu()) {
    if (absl::Status s = (*task)->LimitGpuLaunches(*reported); !s.ok()) return s;
  }
  // The factory knows the strategy names; the job's pipeline builds the real one.
  tuner::StrategyOptions so;
  so.name = spec.tuner;
  so.seed = spec.seed;
  absl::StatusOr<std::unique_ptr<tuner::StrategyBundle>> strategy =
      tuner::MakeSearchStrategy(**task, so);
  if (!strategy.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("tuner: ", strategy.status().message()));
  }
  return task;
}

absl::StatusOr<farm_api::JobStatus> JobManager::Check(const farm_api::JobSpec& spec) const {
  absl::StatusOr<std::unique_ptr<tuner::Task>> task = CheckedTask(spec);
  if (!task.ok()) return task.status();
  farm_api::JobStatus s;
  s.workload_key = (*task)->key();
  s.target = (*task)->target().str();
  s.device_key = spec.device_key;
  s.trials = spec.trials;
  return s;
}

absl::StatusOr<farm_api::JobStatus> JobManager::Submit(const farm_api::JobSpec& spec) {
  Impl& m = *impl_;
  absl::StatusOr<std::unique_ptr<tuner::Task>> task = CheckedTask(spec);
  if (!task.ok()) return task.status();
  auto job = std::make_shared<Job>();
  job->spec = spec;
  farm_api::JobStatus& s = job->status;
  s.workload_key = (*task)->key();
  s.target = (*task)->target().str();
  s.device_key = spec.device_key;
  s.trials = spec.trials;
  s.priority = spec.priority;
  s.tuner = spec.tuner;
  s.model_job_id = spec.model_job_id;
  s.model_task = spec.model_task;
  s.state = farm_api::JobState::kRunning;
  s.version = 1;

  std::lock_guard<std::mutex> lock(m.live.mu);
  if (m.live.shutting_down) return absl::UnavailableError("the tracker is shutting down");
  if (m.live.UnfinishedLocked() >= m.options.max_jobs) {
    return absl::ResourceExhaustedError(
        absl::StrCat("too many unfinished jobs (max_jobs=", m.options.max_jobs,
                     "); wait for one to finish or cancel one"));
  }
  s.created_ms = s.updated_ms = m.options.clock->NowMs();
  s.message = m.DesiredMessage(*job);
  JobRow row{s, farm_api::JobSpecToJson(spec)};
  for (int attempt = 0;; ++attempt) {
    row.status.id = m.live.NewIdLocked();  // unique in memory; the table may hold older ids
    absl::Status inserted = m.table.Insert(row);
    if (inserted.ok()) break;
    if (inserted.code() != absl::StatusCode::kAlreadyExists || attempt >= 16) return inserted;
  }
  s.id = row.status.id;
  m.live.entries[s.id] = job;
  spdlog::info("job {}: submitted {} on {} for device key '{}', {} trials", s.id, s.workload_key,
               spec.target, s.device_key, s.trials);
  m.engine->Start(s.id, spec, *std::move(task));
  return job->status;
}

absl::StatusOr<farm_api::JobStatus> JobManager::Extend(const std::string& id, int trials) {
  Impl& m = *impl_;
  std::shared_ptr<Job> job;
  {
    std::lock_guard<std::mutex> lock(m.live.mu);
    auto it = m.live.entries.find(id);
    if (it != m.live.entries.end()) job = it->second;
  }
  if (job == nullptr) {
    // It ended before this tracker started: back into memory, from its row.
    absl::StatusOr<JobRow> row = m.table.Get(id);
    if (!row.ok()) return row.status();
    absl::StatusOr<farm_api::JobSpec> spec = farm_api::JobSpecFromJson(row->spec_json);
    if (!spec.ok()) return spec.status();
    job = std::make_shared<Job>();
    job->spec = *std::move(spec);
    job->status = m.StatusFromRow(*row);
    std::lock_guard<std::mutex> lock(m.live.mu);
    job = m.live.entries.try_emplace(id, job).first->second;
  }
  std::lock_guard<std::mutex> lock(m.live.mu);
  if (m.live.shutting_down) return absl::UnavailableError("the tracker is shutting down");
  const farm_api::JobState state = job->status.state;
  if (!farm_api::IsFinished(state)) {
    return absl::FailedPreconditionError(absl::StrCat("job ", id, " is still running"));
  }
  if (state != farm_api::JobState::kSucceeded) {
    return absl::FailedPreconditionError(absl::StrCat("job ", id, " ended ",
                                                      std::string(farm_api::JobStateName(state)),
                                                      ": it cannot be extended"));
  }
  if (trials <= job->spec.trials || trials > m.options.max_trials) {
    return absl::InvalidArgumentError(
        absl::StrCat("job ", id, " has ", job->spec.trials, " trials: a new total must be in ",
                     job->spec.trials + 1, "..", m.options.max_trials, ", got ", trials));
  }
  farm_api::JobSpec spec = job->spec;
  spec.trials = trials;
  const int64_t now = m.options.clock->NowMs();
  if (absl::Status s = m.table.Reopen(id, trials, farm_api::JobSpecToJson(spec), now); !s.ok()) {
    return s;
  }
  job->spec = spec;
  job->status.trials = trials;
  m.SetState(*job, farm_api::JobState::kRunning, m.DesiredMessage(*job));
  m.engine->Start(id, std::move(spec), nullptr);
  return job->status;
}

std::vector<farm_api::JobStatus> JobManager::ListOfModelJob(const std::string& model_job_id) const {
  absl::StatusOr<std::vector<JobRow>> rows = impl_->table.ListOfModelJob(model_job_id);
  if (!rows.ok()) {
    spdlog::error("model job {}: cannot list its jobs: {}", model_job_id, rows.status().ToString());
    return {};
  }
  std::vector<farm_api::JobStatus> out;
  for (const JobRow& row : *rows) out.push_back(impl_->CurrentStatus(row));
  return out;
}

void JobManager::ResumePaused(const std::string& device_key) {
  Impl& m = *impl_;
  std::lock_guard<std::mutex> lock(m.live.mu);
  if (m.live.shutting_down) return;
  for (auto& [id, job] : m.live.entries) {
    if (job->status.state != farm_api::JobState::kPaused || job->spec.device_key != device_key) {
      continue;
    }
    spdlog::info("job {}: resuming: a worker of '{}' registered", id, device_key);
    m.SetState(*job, farm_api::JobState::kRunning, m.DesiredMessage(*job));
    m.engine->Start(id, job->spec, nullptr);
  }
}

void JobManager::SetEndListener(std::function<void(const std::string& job_id)> listener) {
  std::lock_guard<std::mutex> lock(impl_->live.mu);
  impl_->end_listener = std::move(listener);
}

absl::StatusOr<farm_api::JobStatus> JobManager::Get(const std::string& id) const {
  return impl_->StatusOf(id);
}

absl::StatusOr<farm_api::JobStatus> JobManager::Cancel(const std::string& id) {
  Impl& m = *impl_;
  std::unique_lock<std::mutex> lock(m.live.mu);
  auto it = m.live.entries.find(id);
  if (it == m.live.entries.end()) {
    lock.unlock();
    return m.StatusOf(id);  // finished before this start (or NotFound)
  }
  std::shared_ptr<Job> job = it->second;
  if (farm_api::IsFinished(job->status.state) || job->cancel_requested) return job->status;
  if (job->status.state == farm_api::JobState::kPaused) {
    // Nothing runs: cancelled at once.
    m.SetState(*job, farm_api::JobState::kCancelled, "cancelled");
    if (m.end_listener) m.end_listener(id);
    return job->status;
  }
  job->cancel_requested = true;
  job->status.message = "cancelling";
  m.live.Touch(*job);
  m.engine->Stop(id);
  m.live.changed.wait_for(lock, kCancelWait,
                          [&] { return farm_api::IsFinished(job->status.state); });
  return job->status;
}

std::vector<farm_api::JobStatus> JobManager::List(bool include_finished, int limit) const {
  absl::StatusOr<std::vector<JobRow>> rows = impl_->table.List(include_finished, limit);
  if (!rows.ok()) {
    spdlog::error("cannot list jobs: {}", rows.status().ToString());
    return {};
  }
  std::vector<farm_api::JobStatus> out;
  for (const JobRow& row : *rows) {
    farm_api::JobStatus status = impl_->CurrentStatus(row);
    if (include_finished || !farm_api::IsFinished(status.state)) out.push_back(std::move(status));
  }
  return out;
}

std::map<farm_api::JobState, int> JobManager::CountByState() const {
  std::map<farm_api::JobState, int> out;
  absl::StatusOr<std::vector<JobRow>> rows =
      impl_->table.List(/*include_finished=*/true, /*limit=*/0);  // 0: all
  if (!rows.ok()) {
    spdlog::error("cannot list jobs: {}", rows.status().ToString());
    return out;
  }
  std::lock_guard<std::mutex> lock(impl_->live.mu);
  for (const JobRow& row : *rows) {
    // The in-memory state is the newest (as in List).
    auto it = impl_->live.entries.find(row.status.id);
    ++out[it != impl_->live.entries.end() ? it->second->status.state : row.status.state];
  }
  return out;
}

absl::StatusOr<farm_api::JobStatus> JobManager::WaitForChange(const std::string& id,
                                                              int64_t after_version,
                                                              int64_t timeout_ms) const {
  std::optional<farm_api::JobStatus> status =
      impl_->live.WaitForChange(id, after_version, timeout_ms);
  if (status.has_value()) return *std::move(status);
  return impl_->StatusOf(id);  // ended before this start: it will not change
}

}  // namespace tunefarm::tracker
