// JobManager: accepts tuning jobs, runs each one as a pipeline on the job engine (a few event
// threads and the build threads, shared by every job: no thread per job and no cap on running
// jobs), persists every job in the record database, and resumes unfinished jobs when a tracker
// starts on that database.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "farm_api/job.h"
#include "runtime/clock.h"
#include "tracker/build_placement.h"
#include "tracker/dispatcher.h"
#include "tracker/lease_sender.h"

namespace tunefarm::tuner {
class RecordStore;
class Task;
}  // namespace tunefarm::tuner

namespace tunefarm::tracker {

class JobTable;
class Metrics;

struct JobManagerOptions {
  int max_jobs = 1000;      // unfinished at once; beyond: ResourceExhausted
  int max_trials = 100000;  // per job; beyond: InvalidArgument
  int64_t max_artifact_bytes = 64ll << 20;
  int build_parallelism = 0;  // candidates compiled at once across all jobs; 0: cores
  BuildPlacement build_placement = BuildPlacement::kAuto;  // when the key's workers can build
  int event_threads = 2;        // threads that advance the jobs (propose, record, learn)
  std::string work_dir_parent;  // scratch for built libraries; empty: $TMPDIR or /tmp
  Metrics* metrics = nullptr;   // times the jobs' database writes; must outlive the manager
  const runtime::Clock* clock = &runtime::SystemClock();  // job and record times
};

class JobManager {
 public:
  // Re-queues every job `table` holds queued or running (a tracker that was killed): each
  // resumes with the trials it still owes and never re-measures a recorded config. `table` (the
  // database's jobs, which the model job manager shares) must outlive the manager; `records` is
  // the same database's record store, through which the jobs record their trials.
  static absl::StatusOr<std::unique_ptr<JobManager>> Create(
      JobManagerOptions options, Dispatcher& dispatcher, LeaseSender& sender, JobTable& table,
      std::unique_ptr<tuner::RecordStore> records);
  // Stops the engine without finishing its jobs (they stay running in the database and resume on
  // the next start).
  ~JobManager();

  // Validates and stores the job. InvalidArgument names the problem (unknown workload or
  // template, a script error with line:column, trials out of 1..max_trials, bad tuner or
  // options); ResourceExhausted when max_jobs are unfinished. Nothing is stored on error.
  absl::StatusOr<farm_api::JobStatus> Submit(const farm_api::JobSpec& spec);
  // Submit's checks alone: the status the job would start with (its canonical workload key and
  // target), or Submit's error. Nothing is stored.
  absl::StatusOr<farm_api::JobStatus> Check(const farm_api::JobSpec& spec) const;
  absl::StatusOr<farm_api::JobStatus> Get(const std::string& id) const;  // NotFound
  // Stops dispatch of the job's work (in-flight leases are withdrawn) and keeps every result
  // recorded so far. A finished job is returned unchanged.
  absl::StatusOr<farm_api::JobStatus> Cancel(const std::string& id);
  // Gives a model job's task more trials: the job's total becomes `trials`, and a job that ended
  // (succeeded) runs again for the difference, resuming from every record of its workload (no
  // config is measured twice). FailedPrecondition while it runs or once it failed or was
  // cancelled; InvalidArgument unless its total grows within max_trials; NotFound.
  absl::StatusOr<farm_api::JobStatus> Extend(const std::string& id, int trials);
  // The jobs of a model job's tasks, oldest first.
  std::vector<farm_api::JobStatus> ListOfModelJob(const std::string& model_job_id) const;
  // Starts the paused jobs of `device_key` again (a worker of the key registered): the rest of
  // their budgets, from their records.
  void ResumePaused(const std::string& device_key);
  // Called with a job's id each time it ends or pauses, on an engine thread under the manager's
  // lock: it must only note the end and wake its own thread, never call back into the manager.
  // Set once, before jobs run.
  void SetEndListener(std::function<void(const std::string& job_id)> listener);
  // Newest first; `include_finished` false: queued and running only.
  std::vector<farm_api::JobStatus> List(bool include_finished, int limit) const;
  // How many jobs of the database are in each state (states with none are absent). Cheap: it
  // reads the jobs table only, not the records (for /metrics, scraped every few seconds).
  std::map<farm_api::JobState, int> CountByState() const;
  // Blocks until the job's version exceeds `after_version`, the job is finished, or
  // `timeout_ms` passes; returns its status then. NotFound for an unknown id.
  absl::StatusOr<farm_api::JobStatus> WaitForChange(const std::string& id, int64_t after_version,
                                                    int64_t timeout_ms) const;

  struct Impl;

 private:
  explicit JobManager(std::unique_ptr<Impl> impl);
  absl::StatusOr<std::unique_ptr<tuner::Task>> CheckedTask(const farm_api::JobSpec& spec) const;
  std::unique_ptr<Impl> impl_;
};

}  // namespace tunefarm::tracker
