// ModelJobManager: runs model jobs on top of the JobManager. A model job's task scheduler gives
// each batch of its trial budget to the task expected to cut the model's latency most, as a new
// job for that task or more trials for its job; a driver thread advances the model jobs as their
// tasks' jobs end. Model jobs are stored beside the jobs, so a restarted tracker resumes them.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "farm_api/model_job.h"
#include "runtime/clock.h"
#include "tracker/job_manager.h"

namespace tunefarm::tracker {

struct ModelJobManagerOptions {
  int max_model_jobs = 100;      // unfinished at once; beyond: ResourceExhausted
  int max_trials = 100000;       // per model job
  int progress_period_ms = 250;  // how often running model jobs refresh their tasks' progress
  const runtime::Clock* clock = &runtime::SystemClock();
};

class ModelJobManager {
 public:
  // Resumes every model job `table` holds queued or running: its tasks' jobs are resumed by
  // `jobs` itself, and its scheduler restarts from what they recorded. `jobs` and `table` (the
  // one `jobs` uses) must outlive the manager.
  static absl::StatusOr<std::unique_ptr<ModelJobManager>> Create(ModelJobManagerOptions options,
                                                                 JobManager& jobs, JobTable& table);
  // Stops the driver; unfinished model jobs stay running in the database.
  ~ModelJobManager();

  // Validates (every task's workload on the target too) and stores the model job; its first
  // batches start at once. InvalidArgument names the problem; ResourceExhausted past
  // max_model_jobs. Nothing is stored on error.
  absl::StatusOr<farm_api::ModelJobStatus> Submit(const farm_api::ModelJobSpec& spec);
  absl::StatusOr<farm_api::ModelJobStatus> Get(const std::string& id) const;  // NotFound
  // The spec as submitted (its tasks, budget and layout choice); NotFound.
  absl::StatusOr<farm_api::ModelJobSpec> GetSpec(const std::string& id) const;
  // Cancels its running tasks' jobs (their records stay) and gives out no more trials.
  absl::StatusOr<farm_api::ModelJobStatus> Cancel(const std::string& id);
  // Newest first; `include_finished` false: queued and running only.
  std::vector<farm_api::ModelJobStatus> List(bool include_finished, int limit) const;
  // Stores the whole model's latency on a device (the client's last step: it has the model, the
  // tracker only its tasks). FailedPrecondition unless the model job succeeded; InvalidArgument
  // for a latency out of range; NotFound.
  absl::StatusOr<farm_api::ModelJobStatus> ReportLatency(const std::string& id,
                                                         const farm_api::ModelLatency& latency);
  // For /metrics, from the table alone (cheap enough to scrape every few seconds): model jobs by
  // state, and the best measured end-to-end seconds per (model name, device key).
  struct Summary {
    std::map<farm_api::JobState, int> by_state;
    std::map<std::pair<std::string, std::string>, double> best_measured;
  };
  Summary Summarize() const;
  // Blocks until the model job's version exceeds `after_version`, it is finished, or
  // `timeout_ms` passes.
  absl::StatusOr<farm_api::ModelJobStatus> WaitForChange(const std::string& id,
                                                         int64_t after_version,
                                                         int64_t timeout_ms) const;

  struct Impl;

 private:
  explicit ModelJobManager(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace tunefarm::tracker
