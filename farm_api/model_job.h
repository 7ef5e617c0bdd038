// A model job as the tracker keeps it: one trial budget that a task scheduler spreads over a
// model's tuning tasks, each task tuned by a job of its own on the same device key. The spec is
// stored as JSON with the model job, so a restarted tracker resumes it.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "farm_api/job.h"
#include "tuner/layout_choice.h"
#include "tuner/measure.h"
#include "tuner/model_tasks.h"
#include "tuner/tuning_request.h"

namespace tunefarm::farm_api {

struct ModelTaskSpec {
  std::string workload;  // the template workload key of the task's anchor op
  double weight = 1;     // how many of the model's fused groups run it
  // Tasks with the same layer (>= 0) are alternative algorithms of the same groups (a conv's
  // direct and Winograd forms): the estimate counts the faster. -1: a layer of its own.
  int layer = -1;
};

// A model job: the request's trials spread over the model's tasks, each tuned by a job of its own
// on the request's device key (batch_size: the trials a task is given at a time).
struct ModelJobSpec : tuner::TuningRequest {
  std::string model_name;  // for lists and the dashboard
  std::vector<ModelTaskSpec> tasks;
  int parallel_tasks = 2;    // tasks tuning at once, so the key's workers never wait on one task
  bool round_robin = false;  // give tasks their batches in turn (the scheduler's baseline)
  // `model tune --layouts`: the layout choice the tasks serve, which the scheduler plans with.
  tuner::LayoutChoice layout;
};

inline constexpr int kMaxModelTasks = 1000;
inline constexpr size_t kMaxModelNameBytes = 256;

std::string ModelJobSpecToJson(const ModelJobSpec& spec);
absl::StatusOr<ModelJobSpec> ModelJobSpecFromJson(std::string_view json);
// The model job's own fields (name, tasks, trials, batch size, parallel tasks, layout choice);
// the tracker's ValidateModelJobSpec adds what its tasks' jobs share.
absl::Status ValidateModelJobFields(const ModelJobSpec& spec, int max_trials);
// InvalidArgument naming the first problem (the tasks' workloads are checked by the manager,
// which can make their tasks).
// The job that tunes task `task` of the model job `model_job_id`, with `trials` in all.
// A model's tuning tasks as a model job's: workload key, weight (the groups that run it), layer.
std::vector<ModelTaskSpec> ModelTaskSpecsOf(const std::vector<tuner::ModelTask>& tasks);
JobSpec ModelTaskJobSpec(const ModelJobSpec& spec, const std::string& model_job_id, int task,
                         int trials);

// The whole model timed on a device of the key once its tuning ended: the module built with the
// best records against the untuned build (what the client reports with ReportModelLatency).
struct ModelLatency {
  double measured_seconds = 0;  // 0: not measured
  double untuned_seconds = 0;   // 0: not measured
  std::string measured_by;      // the worker
};
// InvalidArgument unless measured_seconds is finite and in (0, 1e4] s (untuned too, or 0).
absl::Status ValidateModelLatency(const ModelLatency& latency);

struct ModelTaskStatus {
  std::string workload_key;
  double weight = 1;
  int layer = -1;      // ModelTaskSpec::layer
  std::string job_id;  // "" until the task is first given trials
  int trials = 0;      // given so far
  int trials_done = 0;
  double best_seconds = 0;             // 0: none yet
  JobState state = JobState::kQueued;  // its job's (queued until it has one)
  // How many times one run of the model runs it, as the estimate counts (tuner::EstimateModel):
  // its layer's fastest alternative runs `weight` times, a task of the layout choice at the
  // sites of the chosen layout; 0: the build would not run it with the bests so far.
  double runs = 0;
};

struct ModelJobStatus {
  std::string id;
  JobState state = JobState::kQueued;
  std::string model_name;
  std::string target;
  std::string device_key;
  int trials = 0;       // the budget
  int trials_done = 0;  // recorded by its tasks' jobs
  // How its tasks' jobs time candidates (runtime::measure::TimedFlush of the spec's options).
  tuner::CacheFlush cache_flush = tuner::CacheFlush::kNone;
  // Sum over the tasks of runs x best time (tuner::EstimateModel): the tuned kernels' share of
  // the model's latency. 0 until every kernel the build would run has a result.
  double estimated_seconds = 0;
  std::string message;
  int64_t created_ms = 0;
  int64_t updated_ms = 0;
  int64_t version = 0;  // increases with every change (WatchModelJob waits on it)
  std::vector<ModelTaskStatus> tasks;
  ModelLatency latency;
};

}  // namespace tunefarm::farm_api
