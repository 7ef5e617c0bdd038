// ModelJobManager: model jobs in memory (spec, status, scheduler), the driver thread that gives
// out their batches, and their rows in the jobs tables. The driver alone touches a model job's
// scheduler and its busy tasks, and calls the JobManager without holding this manager's lock (the
// JobManager's end listener only takes `wake_mu`), so the two never wait on each other.
#include "tracker/model_job_manager.h"

#include <algorithm>
#include <condition_variable>
#include <cstdio>
#include <map>
#include <mutex>
#include <optional>
#include <thread>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "spdlog/spdlog.h"
#include "tracker/job_table.h"
#include "tracker/live_jobs.h"
#include "tuner/model_latency_estimate.h"
#include "tuner/task_scheduler.h"

namespace tunefarm::tracker {
namespace {

struct ModelJob {
  farm_api::ModelJobSpec spec;
  farm_api::ModelJobStatus status;  // under the manager's `live.mu`
  bool cancel_requested = false;
  bool unsaved = false;  // the table missed its last state: written again by the driver
  // --- the driver's alone ---
  std::unique_ptr<tuner::TaskScheduler> scheduler;
  std::vector<bool> busy;              // the task's job is running a batch
  std::vector<int> observed;           // its job's trials already told to the scheduler
  int given = 0;                       // trials given out over all tasks
  std::string last_failure;            // why a task last failed or could not be given trials
  std::vector<double> estimated_from;  // the bests of `estimate`
  tuner::ModelEstimate estimate;
};

tuner::TaskSchedulerOptions SchedulerOptions(const farm_api::ModelJobSpec& spec) {
  tuner::TaskSchedulerOptions o;
  o.round_robin = spec.round_robin;
  o.seed = spec.seed;
  return o;
}

std::unique_ptr<tuner::TaskScheduler> MakeScheduler(const farm_api::ModelJobSpec& spec,
                                                    const farm_api::ModelJobStatus& status) {
  std::vector<tuner::ScheduledTask> tasks;
  for (const farm_api::ModelTaskStatus& t : status.tasks) {
    tasks.push_back({t.workload_key, t.weight, t.layer});
  }
  return std::make_unique<tuner::TaskScheduler>(std::move(tasks), SchedulerOptions(spec),
                                                spec.layout);
}

// A task's job ended without spending its trials the usual way: its space is exhausted, it
// stopped early, failed or was cancelled, so it is given nothing more.
bool TaskIsOver(const farm_api::JobStatus& job) {
  return job.state != farm_api::JobState::kSucceeded || job.message != "done";
}

void ApplyJob(const farm_api::JobStatus& job, farm_api::ModelTaskStatus& task) {
  task.job_id = job.id;
  task.trials = job.trials;
  task.trials_done = job.progress.trials_done;
  task.best_seconds = job.progress.best_seconds;
  task.state = job.state;
}

std::vector<tuner::TaskBest> BestsOf(const farm_api::ModelJobStatus& s) {
  std::vector<tuner::TaskBest> bests;
  for (const farm_api::ModelTaskStatus& t : s.tasks)
    bests.push_back({t.layer, t.weight, t.best_seconds});
  return bests;
}

// The totals derived from the tasks and their estimate (the layout choice's tasks as its chosen
// layout runs them).
void SetTotals(farm_api::ModelJobStatus& s, const tuner::ModelEstimate& estimate) {
  s.trials_done = 0;
  for (size_t i = 0; i < s.tasks.size(); ++i) {
    s.trials_done += s.tasks[i].trials_done;
    s.tasks[i].runs = i < estimate.runs.size() ? estimate.runs[i] : 0;
  }
  s.estimated_seconds = estimate.seconds.value_or(0);
}

}  // namespace

struct ModelJobManager::Impl {
  Impl(ModelJobManagerOptions o, JobManager& j, JobTable& t)
      : options(std::move(o)), jobs(j), table(t), live("model", options.clock) {}

  const ModelJobManagerOptions options;
  JobManager& jobs;
  JobTable& table;

  LiveJobs<ModelJob> live;  // the model jobs in memory: their lock, versions and ids

  std::mutex wake_mu;  // taken under the JobManager's lock: nothing else is taken under it
  std::condition_variable wake_cv;
  bool wake = false;
  std::thread driver;

  void Wake() {
    {
      std::lock_guard<std::mutex> lock(wake_mu);
      wake = true;
    }
    wake_cv.notify_all();
  }

  // --- under `live.mu` ---
  void Persist(ModelJob& job) {
    absl::Status s = table.UpdateModelJobState(job.status.id, job.status.state, job.status.message,
                                               job.status.updated_ms);
    if (!s.ok() && !job.unsaved) {
      spdlog::error("model job {}: cannot store its state (retrying): {}", job.status.id,
                    s.ToString());
    }
    job.unsaved = !s.ok();
  }

  void SetState(ModelJob& job, farm_api::JobState state, std::string message) {
    job.status.state = state;
    job.status.message = std::move(message);
    live.Touch(job);
    Persist(job);
  }

  // --- no lock held ---

  // A model job from its row: its spec, and each task's job as the JobManager has it now.
  absl::StatusOr<std::shared_ptr<ModelJob>> FromRow(const ModelJobRow& row) const {
    absl::StatusOr<farm_api::ModelJobSpec> spec = farm_api::ModelJobSpecFromJson(row.spec_json);
    if (!spec.ok()) return spec.status();
    auto job = std::make_shared<ModelJob>();
    job->spec = *std::move(spec);
    farm_api::ModelJobStatus& s = job->status;
    s = row.status;
    s.version = 1;
    s.cache_flush = runtime::measure::TimedFlush(job->spec.measure);
    for (const farm_api::ModelTaskSpec& t : job->spec.tasks) {
      farm_api::ModelTaskStatus task;
      task.workload_key = t.workload;
      task.weight = t.weight;
      task.layer = t.layer;
      s.tasks.push_back(std::move(task));
    }
    for (const farm_api::JobStatus& j : jobs.ListOfModelJob(row.status.id)) {
      if (j.model_task < 0 || j.model_task >= static_cast<int>(s.tasks.size())) continue;
      ApplyJob(j, s.tasks[j.model_task]);
      s.tasks[j.model_task].workload_key = j.workload_key;
    }
    SetTotals(s, tuner::EstimateModel(BestsOf(s), job->spec.layout));
    return job;
  }

  // The model job `id`: the live one, else rebuilt from the table (a finished one). NotFound.
  absl::StatusOr<std::shared_ptr<ModelJob>> Find(const std::string& id) const {
    {
      std::lock_guard<std::mutex> lock(live.mu);
      auto it = live.entries.find(id);
      if (it != live.entries.end()) return it->second;
    }
    absl::StatusOr<ModelJobRow> row = table.GetModelJob(id);
    if (!row.ok()) return row.status();
    return FromRow(*row);
  }

  // Picks up an unfinished model job (the tracker stopped): its tasks' jobs were resumed by the
  // JobManager, and the scheduler starts from what each task has recorded.
  void Resume(const ModelJobRow& row) {
    absl::StatusOr<std::shared_ptr<ModelJob>> job = FromRow(row);
    if (!job.ok()) {
      absl::Status s = table.UpdateModelJobState(
          row.status.id, farm_api::JobState::kFailed,
          absl::StrCat("cannot resume: ", job.status().message()), options.clock->NowMs());
      if (!s.ok()) spdlog::error("model job {}: {}", row.status.id, s.ToString());
      return;
    }
    ModelJob& j = **job;
    const int n = static_cast<int>(j.status.tasks.size());
    j.scheduler = MakeScheduler(j.spec, j.status);
    j.busy.assign(n, false);
    j.observed.assign(n, 0);
    for (const farm_api::JobStatus& t : jobs.ListOfModelJob(row.status.id)) {
      const int i = t.model_task;
      if (i < 0 || i >= n) continue;
      j.given += t.trials;
      j.observed[i] = t.progress.trials_done;
      j.scheduler->Restore(i, std::max(1, t.trials / std::max(j.spec.batch_size, 1)),
                           t.progress.trials_done, t.progress.best_seconds);
      j.busy[i] = !farm_api::IsFinished(t.state);
      if (!j.busy[i] && TaskIsOver(t)) {
        j.scheduler->Finish(i);
        j.given -= std::max(t.trials - t.progress.trials_done, 0);
      }
    }
    spdlog::info("model job {}: resuming ({} of {} trials given)", row.status.id, j.given,
                 j.status.trials);
    std::lock_guard<std::mutex> lock(live.mu);
    j.status.state = farm_api::JobState::kRunning;
    live.entries[row.status.id] = *std::move(job);
  }

  // The driver: advances every running model job when a task's job ends, and refreshes their
  // progress every progress_period_ms.
  void DriverLoop() {
    for (;;) {
      {
        std::unique_lock<std::mutex> lock(wake_mu);
        wake_cv.wait_for(lock, std::chrono::milliseconds(options.progress_period_ms),
                         [&] { return wake; });
        wake = false;
      }
      std::vector<std::shared_ptr<ModelJob>> running;
      {
        std::lock_guard<std::mutex> lock(live.mu);
        if (live.shutting_down) return;
        for (auto& [id, job] : live.entries) {
          if (!farm_api::IsFinished(job->status.state)) running.push_back(job);
        }
      }
      for (const std::shared_ptr<ModelJob>& job : running) Advance(*job);
    }
  }

  void Advance(ModelJob& job) {
    bool cancel = false;
    {
      std::lock_guard<std::mutex> lock(live.mu);
      if (live.shutting_down) return;
      cancel = job.cancel_requested;
      if (job.unsaved) Persist(job);
    }
    // What the tasks' jobs did since the last pass.
    const int n = static_cast<int>(job.status.tasks.size());
    std::vector<std::optional<farm_api::JobStatus>> now(n);
    for (int i = 0; i < n; ++i) {
      if (!job.busy[i]) continue;  // the others' jobs have ended: nothing of theirs moves
      absl::StatusOr<farm_api::JobStatus> s = jobs.Get(job.status.tasks[i].job_id);
      if (s.ok()) now[i] = *std::move(s);
    }
    std::string task_message;
    for (int i = 0; i < n; ++i) {
      if (!now[i].has_value() || !job.busy[i]) continue;
      const farm_api::JobStatus& s = *now[i];
      if (!farm_api::IsFinished(s.state)) {
        if (task_message.empty()) task_message = s.message;
        continue;
      }
      job.busy[i] = false;
      job.scheduler->Observe(i, s.progress.trials_done - job.observed[i], s.progress.best_seconds);
      job.observed[i] = s.progress.trials_done;
      if (TaskIsOver(s)) {
        job.scheduler->Finish(i);
        job.given -= std::max(s.trials - s.progress.trials_done, 0);  // what it did not spend
        if (s.state == farm_api::JobState::kFailed) {
          spdlog::warn("model job {}: task {} ({}) failed: {}", job.status.id, i, s.workload_key,
                       s.message);
          job.last_failure = absl::StrCat("task ", i, ": ", s.message);
        }
      }
    }
    if (cancel) {
      for (int i = 0; i < n; ++i) {
        if (!job.busy[i]) continue;
        absl::StatusOr<farm_api::JobStatus> s = jobs.Cancel(job.status.tasks[i].job_id);
        if (s.ok()) now[i] = *std::move(s);
        job.busy[i] = false;
      }
    } else {
      GiveBatches(job, now);
    }
    const bool any_busy = std::find(job.busy.begin(), job.busy.end(), true) != job.busy.end();
    Estimate(job, now);
    std::lock_guard<std::mutex> lock(live.mu);
    // A tracker going down leaves its model jobs running in the table, to resume.
    if (live.shutting_down) return;
    farm_api::ModelJobStatus before = job.status;
    for (int i = 0; i < n; ++i) {
      if (now[i].has_value()) ApplyJob(*now[i], job.status.tasks[i]);
    }
    SetTotals(job.status, job.estimate);
    if (cancel) {
      SetState(job, farm_api::JobState::kCancelled, "cancelled");
    } else if (!any_busy && job.status.trials_done == 0 && !job.last_failure.empty()) {
      SetState(job, farm_api::JobState::kFailed,
               absl::StrCat("no task could be tuned: ", job.last_failure));
    } else if (!any_busy) {
      SetState(job, farm_api::JobState::kSucceeded, EndMessage(job));
    } else {
      job.status.message = task_message;
      if (job.status.message != before.message) Persist(job);
      if (Differs(before, job.status)) live.Touch(job);
    }
  }

  // The model's estimate with the tasks' bests `now`, made again only when a best moved. It is
  // made here, not under `live.mu`, which every reader of the tracker takes: with a layout choice
  // it is a search over the convs' blocks. (The driver alone writes the tasks, so it reads them
  // without the lock.)
  static void Estimate(ModelJob& job, const std::vector<std::optional<farm_api::JobStatus>>& now) {
    std::vector<tuner::TaskBest> bests = BestsOf(job.status);
    std::vector<double> seconds;
    for (size_t i = 0; i < bests.size(); ++i) {
      if (now[i].has_value()) bests[i].best_seconds = now[i]->progress.best_seconds;
      seconds.push_back(bests[i].best_seconds);
    }
    if (!job.estimated_from.empty() && seconds == job.estimated_from) return;
    job.estimate = tuner::EstimateModel(bests, job.spec.layout);
    job.estimated_from = std::move(seconds);
  }

  // Gives batches to the tasks the scheduler picks while fewer than parallel_tasks run and
  // trials remain: a first batch submits the task's job, a later one extends it.
  void GiveBatches(ModelJob& job, std::vector<std::optional<farm_api::JobStatus>>& now) {
    auto running = [&] {
      return static_cast<int>(std::count(job.busy.begin(), job.busy.end(), true));
    };
    while (running() < job.spec.parallel_tasks && job.given < job.spec.trials) {
      std::optional<int> next = job.scheduler->Next(job.busy);
      if (!next.has_value()) return;
      const int i = *next;
      const int batch = std::min(job.spec.batch_size, job.spec.trials - job.given);
      farm_api::ModelTaskStatus& task = job.status.tasks[i];
      const int total = task.trials + batch;
      absl::StatusOr<farm_api::JobStatus> s =
          task.job_id.empty()
              ? jobs.Submit(farm_api::ModelTaskJobSpec(job.spec, job.status.id, i, total))
              : jobs.Extend(task.job_id, total);
      if (!s.ok()) {
        // The task cannot be tuned further (its job failed, or the tracker is going down): the
        // other tasks get its trials.
        spdlog::warn("model job {}: task {} gets no more trials: {}", job.status.id, i,
                     s.status().ToString());
        job.scheduler->Finish(i);
        job.last_failure = absl::StrCat("task ", i, ": ", s.status().message());
        if (s.status().code() == absl::StatusCode::kUnavailable) return;
        continue;
      }
      if (task.job_id.empty()) {
        std::lock_guard<std::mutex> lock(live.mu);
        task.job_id = s->id;
      }
      now[i] = *std::move(s);
      job.busy[i] = true;
      job.given += batch;
    }
  }

  static bool Differs(const farm_api::ModelJobStatus& a, const farm_api::ModelJobStatus& b) {
    if (a.trials_done != b.trials_done || a.estimated_seconds != b.estimated_seconds ||
        a.message != b.message) {
      return true;
    }
    for (size_t i = 0; i < a.tasks.size(); ++i) {
      const farm_api::ModelTaskStatus& x = a.tasks[i];
      const farm_api::ModelTaskStatus& y = b.tasks[i];
      if (x.job_id != y.job_id || x.trials != y.trials || x.trials_done != y.trials_done ||
          x.best_seconds != y.best_seconds || x.state != y.state || x.runs != y.runs) {
        return true;
      }
    }
    return false;
  }

  static std::string EndMessage(const ModelJob& job) {
    const farm_api::ModelJobStatus& s = job.status;
    std::string text = absl::StrCat(s.trials_done, " trials over ", s.tasks.size(), " tasks");
    if (s.estimated_seconds > 0) {
      absl::StrAppend(&text, absl::StrFormat("; tuned kernels %.3f ms", s.estimated_seconds * 1e3));
    }
    int failed = 0;
    for (const farm_api::ModelTaskStatus& t : s.tasks)
      failed += t.state == farm_api::JobState::kFailed ? 1 : 0;
    if (failed > 0) absl::StrAppend(&text, "; ", failed, " task(s) failed");
    return text;
  }

  void Shutdown() {
    {
      std::lock_guard<std::mutex> lock(live.mu);
      live.shutting_down = true;
      live.changed.notify_all();
    }
    Wake();
    if (driver.joinable()) driver.join();
  }
};

absl::StatusOr<std::unique_ptr<ModelJobManager>> ModelJobManager::Create(
    ModelJobManagerOptions options, JobManager& jobs, JobTable& table) {
  if (options.max_model_jobs < 1 || options.max_trials < 1 || options.progress_period_ms < 1) {
    return absl::InvalidArgumentError(
        "max_model_jobs, max_trials and progress_period_ms must be >= 1");
  }
  absl::StatusOr<std::vector<ModelJobRow>> unfinished = table.LoadUnfinishedModelJobs();
  if (!unfinished.ok()) return unfinished.status();
  auto impl = std::make_unique<Impl>(std::move(options), jobs, table);
  Impl* raw = impl.get();
  for (const ModelJobRow& row : *unfinished) raw->Resume(row);
  jobs.SetEndListener([raw](const std::string&) { raw->Wake(); });
  raw->driver = std::thread([raw] { raw->DriverLoop(); });
  return std::unique_ptr<ModelJobManager>(new ModelJobManager(std::move(impl)));
}

ModelJobManager::ModelJobManager(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

ModelJobManager::~ModelJobManager() {
  impl_->jobs.SetEndListener(nullptr);
  impl_->Shutdown();
}

absl::StatusOr<farm_api::ModelJobStatus> ModelJobManager::Submit(
    const farm_api::ModelJobSpec& spec) {
  Impl& m = *impl_;
  if (absl::Status s = ValidateModelJobSpec(spec, m.options.max_trials); !s.ok()) return s;
  auto job = std::make_shared<ModelJob>();
  job->spec = spec;
  farm_api::ModelJobStatus& s = job->status;
  for (int i = 0; i < static_cast<int>(spec.tasks.size()); ++i) {
    absl::StatusOr<farm_api::JobStatus> check =
        m.jobs.Check(farm_api::ModelTaskJobSpec(spec, "", i, 1));
    if (!check.ok()) {
      return absl::Status(check.status().code(),
                          absl::StrCat("model job: task ", i, " ('", spec.tasks[i].workload,
                                       "'): ", check.status().message()));
    }
    farm_api::ModelTaskStatus task;
    task.workload_key = check->workload_key;
    task.weight = spec.tasks[i].weight;
    task.layer = spec.tasks[i].layer;
    s.tasks.push_back(std::move(task));
    s.target = check->target;
  }
  s.state = farm_api::JobState::kRunning;
  s.model_name = spec.model_name;
  s.device_key = spec.device_key;
  s.trials = spec.trials;
  s.cache_flush = runtime::measure::TimedFlush(spec.measure);
  s.version = 1;
  job->scheduler = MakeScheduler(spec, s);
  job->busy.assign(spec.tasks.size(), false);
  job->observed.assign(spec.tasks.size(), 0);

  std::lock_guard<std::mutex> lock(m.live.mu);
  if (m.live.shutting_down) return absl::UnavailableError("the tracker is shutting down");
  if (m.live.UnfinishedLocked() >= m.options.max_model_jobs) {
    return absl::ResourceExhaustedError(
        absl::StrCat("too many unfinished model jobs (max_model_jobs=", m.options.max_model_jobs,
                     "); wait for one to finish or cancel one"));
  }
  s.created_ms = s.updated_ms = m.options.clock->NowMs();
  ModelJobRow row{s, farm_api::ModelJobSpecToJson(spec)};
  for (int attempt = 0;; ++attempt) {
    row.status.id = m.live.NewIdLocked();
    absl::Status inserted = m.table.InsertModelJob(row);
    if (inserted.ok()) break;
    if (inserted.code() != absl::StatusCode::kAlreadyExists || attempt >= 16) return inserted;
  }
  s.id = row.status.id;
  m.live.entries[s.id] = job;
  spdlog::info("model job {}: submitted '{}' ({} tasks, {} trials) for device key '{}'", s.id,
               s.model_name, s.tasks.size(), s.trials, s.device_key);
  m.Wake();
  return s;
}

absl::StatusOr<farm_api::ModelJobSpec> ModelJobManager::GetSpec(const std::string& id) const {
  absl::StatusOr<std::shared_ptr<ModelJob>> job = impl_->Find(id);
  if (!job.ok()) return job.status();
  return (*job)->spec;  // set once, when the job is made
}

absl::StatusOr<farm_api::ModelJobStatus> ModelJobManager::Get(const std::string& id) const {
  absl::StatusOr<std::shared_ptr<ModelJob>> job = impl_->Find(id);
  if (!job.ok()) return job.status();
  std::lock_guard<std::mutex> lock(impl_->live.mu);  // a live job's status changes under it
  return (*job)->status;
}

absl::StatusOr<farm_api::ModelJobStatus> ModelJobManager::Cancel(const std::string& id) {
  Impl& m = *impl_;
  std::unique_lock<std::mutex> lock(m.live.mu);
  auto it = m.live.entries.find(id);
  if (it == m.live.entries.end()) {
    lock.unlock();
    return Get(id);  // finished before this start (or NotFound)
  }
  std::shared_ptr<ModelJob> job = it->second;
  if (farm_api::IsFinished(job->status.state) || job->cancel_requested) return job->status;
  job->cancel_requested = true;
  job->status.message = "cancelling";
  m.live.Touch(*job);
  m.Wake();
  // The driver cancels the tasks' jobs (each waits for its builds and leases to wind down).
  m.live.changed.wait_for(lock, std::chrono::seconds(15), [&] {
    return farm_api::IsFinished(job->status.state) || m.live.shutting_down;
  });
  return job->status;
}

std::vector<farm_api::ModelJobStatus> ModelJobManager::List(bool include_finished,
                                                            int limit) const {
  absl::StatusOr<std::vector<ModelJobRow>> rows =
      impl_->table.ListModelJobs(include_finished, limit);
  if (!rows.ok()) {
    spdlog::error("cannot list model jobs: {}", rows.status().ToString());
    return {};
  }
  std::vector<farm_api::ModelJobStatus> out;
  for (const ModelJobRow& row : *rows) {
    absl::StatusOr<farm_api::ModelJobStatus> s = Get(row.status.id);
    if (!s.ok()) continue;
    if (include_finished || !farm_api::IsFinished(s->state)) out.push_back(*std::move(s));
  }
  return out;
}

absl::StatusOr<farm_api::ModelJobStatus> ModelJobManager::ReportLatency(
    const std::string& id, const farm_api::ModelLatency& latency) {
  Impl& m = *impl_;
  if (absl::Status s = farm_api::ValidateModelLatency(latency); !s.ok()) return s;
  absl::StatusOr<farm_api::ModelJobStatus> now = Get(id);
  if (!now.ok()) return now.status();
  if (now->state != farm_api::JobState::kSucceeded) {
    return absl::FailedPreconditionError(
        absl::StrCat("model job ", id, " is ", std::string(farm_api::JobStateName(now->state)),
                     ": a latency is reported once its tuning succeeded"));
  }
  std::lock_guard<std::mutex> lock(m.live.mu);
  const int64_t now_ms = m.options.clock->NowMs();
  if (absl::Status s = m.table.SetModelJobLatency(id, latency, now_ms); !s.ok()) return s;
  auto it = m.live.entries.find(id);
  if (it == m.live.entries.end()) {
    now->latency = latency;
    now->updated_ms = now_ms;
    return now;
  }
  it->second->status.latency = latency;
  m.live.Touch(*it->second);
  spdlog::info("model job {}: {:.3f} ms end to end on {} (untuned {:.3f} ms)", id,
               latency.measured_seconds * 1e3, latency.measured_by, latency.untuned_seconds * 1e3);
  return it->second->status;
}

ModelJobManager::Summary ModelJobManager::Summarize() const {
  Summary out;
  absl::StatusOr<std::vector<ModelJobRow>> rows =
      impl_->table.ListModelJobs(/*include_finished=*/true, /*limit=*/0);
  if (!rows.ok()) {
    spdlog::error("cannot list model jobs: {}", rows.status().ToString());
    return out;
  }
  std::lock_guard<std::mutex> lock(impl_->live.mu);
  for (const ModelJobRow& row : *rows) {
    // The in-memory state is the newest.
    auto it = impl_->live.entries.find(row.status.id);
    ++out.by_state[it != impl_->live.entries.end() ? it->second->status.state : row.status.state];
    const farm_api::ModelLatency& l =
        it != impl_->live.entries.end() ? it->second->status.latency : row.status.latency;
    if (l.measured_seconds <= 0) continue;
    auto [best, added] = out.best_measured.try_emplace(
        {row.status.model_name, row.status.device_key}, l.measured_seconds);
    if (!added) best->second = std::min(best->second, l.measured_seconds);
  }
  return out;
}

absl::StatusOr<farm_api::ModelJobStatus> ModelJobManager::WaitForChange(const std::string& id,
                                                                        int64_t after_version,
                                                                        int64_t timeout_ms) const {
  std::optional<farm_api::ModelJobStatus> status =
      impl_->live.WaitForChange(id, after_version, timeout_ms);
  if (status.has_value()) return *std::move(status);
  return Get(id);
}

}  // namespace tunefarm::tracker
