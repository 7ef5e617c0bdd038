// A tuning job as the tracker keeps it: what was asked (JobSpec, stored as JSON with the job so a
// restarted tracker can resume it) and where it stands (JobStatus).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "tuner/tuning_request.h"

namespace tunefarm::farm_api {

// A job tunes one task as its TuningRequest asks (its device key: the workers that measure it).
struct JobSpec : tuner::TuningRequest {
  // Exactly one of `workload` (a template workload key) and `script_source` (a TE script with
  // cfg knobs; `bindings` give its sizes).
  std::string workload;
  std::string script_source;
  std::string script_name;  // for keys and error messages; empty: "script"
  std::map<std::string, int64_t> bindings;
  std::string dtype = "float32";
  // A task of a model job: the model job's id and the task's index in it ("" and -1 otherwise).
  std::string model_job_id;
  int model_task = -1;
};

std::string JobSpecToJson(const JobSpec& spec);
absl::StatusOr<JobSpec> JobSpecFromJson(std::string_view json);

// kPaused: its key's devices failed its last trials in a row (tracker::DeviceFailureRun); it
// resumes when a worker of the key registers (or the tracker restarts), and can be cancelled.
enum class JobState { kQueued, kRunning, kSucceeded, kFailed, kCancelled, kPaused };
std::string_view JobStateName(JobState state);  // "queued", "running", ...
absl::StatusOr<JobState> ParseJobState(std::string_view name);
inline bool IsFinished(JobState s) {
  return s == JobState::kSucceeded || s == JobState::kFailed || s == JobState::kCancelled;
}

// Where a job stands by its records: all of them, across tracker restarts.
struct JobProgress {
  int trials_done = 0;  // recorded, all kinds
  int errors = 0;
  std::map<std::string, int> error_counts;  // by error kind name
  double best_seconds = 0;
  double best_gflops = 0;
  std::string best_config_json;
};

struct JobStatus {
  std::string id;
  JobState state = JobState::kQueued;
  std::string workload_key;
  std::string target;
  std::string device_key;
  int trials = 0;  // requested
  JobProgress progress;
  // Why it waits ("no worker with device key 'rasp4b' is connected"), why it failed, or how it
  // ended ("early stopped", "space exhausted").
  std::string message;
  int64_t created_ms = 0;
  int64_t updated_ms = 0;
  int priority = 1;
  std::string tuner;
  std::string model_job_id;  // "" unless the job is a model job's task
  int model_task = -1;
  int64_t version = 0;  // increases with every change (WatchJob waits on it)
};

}  // namespace tunefarm::farm_api
