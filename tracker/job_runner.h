// One job's tuning run on its job thread (task, own record store connection, strategy, pooled
// builder, RemoteRunner, tuner::Tune for the trials it still owes), and Submit's spec checks.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "runtime/clock.h"
#include "tracker/builder_pool.h"
#include "tracker/dispatcher.h"
#include "tracker/job.h"
#include "tracker/lease_sender.h"
#include "tracker/remote_runner.h"
#include "tuner/record_store.h"
#include "tuner/task.h"

namespace tunefarm::tracker {

// The longest script_name a job may give (it becomes part of the workload key).
inline constexpr size_t kMaxScriptNameBytes = 255;

// Checks what needs no task: one of workload/script, device key, trials in 1..max_trials,
// priority, batch size, early stopping, dtype (a known element type, for scripts too),
// script_name's length and the measure options (tuner::ValidateMeasureOptions: finite, in their
// documented ranges). InvalidArgument names the field.
absl::Status ValidateJobSpec(const JobSpec& spec, int max_trials);

// The spec's task (workload key or TE script) on its target. A bad workload, template or target
// and any script error (which carries FILE:LINE:COL) are InvalidArgument.
absl::StatusOr<std::unique_ptr<tuner::Task>> MakeJobTask(const JobSpec& spec);

// Where a job stands by its records: all of them, across tracker restarts.
struct JobProgress {
  int trials_done = 0;
  int errors = 0;
  std::map<std::string, int> error_counts;
  double best_seconds = 0;
  double best_gflops = 0;
  std::string best_config_json;
};

// Counts the job's records in `store`; the best is that of (workload, target, device key).
absl::StatusOr<JobProgress> JobProgressFromStore(tuner::RecordStore& store,
                                                 const std::string& job_id,
                                                 const std::string& workload_key,
                                                 const std::string& target,
                                                 const std::string& device_key);

struct JobRunContext {
  Dispatcher& dispatcher;
  LeaseSender& sender;
  const BuilderPool& pool;
  std::string db_path;
  int64_t max_artifact_bytes = 64ll << 20;
  Metrics* metrics = nullptr;  // handed to the job's RemoteRunner (database write times)
  const runtime::Clock* clock = &runtime::SystemClock();  // submit and record times
};

struct JobRunHooks {
  // The job's runner once it exists, and null before it is destroyed, so that a cancel can
  // interrupt it: the owner must call Interrupt only under the lock this hook takes.
  std::function<void(RemoteRunner*)> on_runner;
  std::function<void(const JobProgress&)> on_progress;
};

struct JobRunOutcome {
  absl::Status status;  // an infrastructure failure: the job failed
  bool interrupted = false;
  bool early_stopped = false;
  bool exhausted = false;
};

// Runs the job to its end or until `stop` is set. `task` may be null (it is made from the spec).
JobRunOutcome RunJob(const std::string& job_id, const JobSpec& spec,
                     std::unique_ptr<tuner::Task> task, const JobRunContext& context,
                     const std::atomic<bool>& stop, const JobRunHooks& hooks);

}  // namespace tunefarm::tracker
