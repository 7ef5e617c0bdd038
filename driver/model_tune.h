// TuneModel: the one path from an ONNX file to a tuned module, here or through a farm. A backend
// tunes the model's tasks under one budget; with an output file the module is then built with the
// best records (each conv's algorithm raced in the model), and the tuned and the untuned builds
// are timed in turns on the device the records are for.
#pragma once

#include <atomic>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler/target/target.h"
#include "driver/algorithm_race.h"
#include "driver/model_tuning_tasks.h"
#include "runtime/measure/interleaved_timing.h"
#include "tuner/layout_choice.h"
#include "tuner/tuning_request.h"

namespace tunefarm::driver {

struct ModelTuneRequest {
  ModelTuningRequest model;  // the file, how it is read, --layouts
  // The target, device key, budget over all tasks, search and timing (a task's candidates timed
  // as its layer runs in the model: --timing weights is the CLI's default).
  tuner::TuningRequest tuning;
  bool round_robin = false;  // tasks take turns (the scheduler's baseline) instead of gradients
  // Once tuning succeeded: the module built with the best records, written here. Empty: stop
  // after tuning.
  std::string output;
  // With `output`, on a CPU target: each conv's close rival algorithms raced in the model on the
  // tuned device (algorithm_race.h) for at most race_seconds before the build.
  bool race = true;
  double race_seconds = 600;
};

// The tasks' tuning as it ended.
struct TunedTask {
  std::string workload_key;
  double weight = 1;
  int layer = -1;  // tuner::ModelTask::layer (-1: a layer of its own)
  int trials = 0;
  double best_seconds = 0;  // 0: none
};
struct TunedModel {
  enum class Ending { kSucceeded, kStopped, kFailed, kSubmitted };
  Ending ending = Ending::kSucceeded;
  std::string message;     // why it failed or stopped (a farm job's message)
  std::string job_id;      // a farm's model job; empty here
  std::string job_state;   // its last state as the farm names it ("succeeded", "cancelled", ...)
  std::string device_key;  // the key the records are filed under
  std::string target;      // the target they are for, as stored
  std::vector<TunedTask> tasks;
  int trials_done = 0;
  tuner::LayoutChoice layout;  // the layout choice the tasks served (empty without)
};

// The tuned and the untuned module timed in turns on one device of the key.
struct EndToEndLatency {
  double tuned_seconds = 0;  // medians over the rounds
  double untuned_seconds = 0;
  runtime::measure::RatioInterval tuned_over_untuned;
  std::string measured_by;  // the worker (farm) or "local"
};

struct ModelTuneResult {
  TunedModel tuned;
  std::optional<RaceResult> race;             // with `output` and a race that ran
  std::optional<EndToEndLatency> end_to_end;  // with `output`, where the device runs it
};

// What a front end shows while a model tunes; every call comes from TuneModel's thread.
class ModelTuneObserver {
 public:
  virtual ~ModelTuneObserver() = default;
  // The tasks are known and tuning starts: `line` says where and with what budget.
  virtual void OnStart(const std::string& /*line*/) {}
  // A batch of task `index` ended; `estimate_seconds` is the model's estimate once every task
  // has a best (0 before).
  virtual void OnBatch(int /*index*/, const TunedTask& /*task*/, double /*estimate_seconds*/) {}
  // News that is no batch: a farm job's message, the race's lines, the files written.
  virtual void OnNote(const std::string& /*line*/) {}
  virtual void OnTuned(const TunedModel& /*tuned*/) {}
};

// Where the tuning runs: this machine (local_model_tuner.h) or a farm's device key
// (client/farm_model_tuner.h).
class ModelTuneBackend {
 public:
  virtual ~ModelTuneBackend() = default;
  // The target (tuning.target, as given) the tasks are extracted for: InvalidArgument for one
  // that does not parse, or that this backend cannot measure. May fill what the backend decides
  // in `tuning` (a local GPU's device key).
  virtual absl::StatusOr<target::Target> ResolveTarget(tuner::TuningRequest& tuning) = 0;
  // Tunes the tasks under request.tuning.trials; `stop` (polled) ends it early, its results kept.
  virtual absl::StatusOr<TunedModel> Tune(const ModelTuning& tuning, const target::Target& target,
                                          const ModelTuneRequest& request,
                                          ModelTuneObserver& observer,
                                          const std::atomic<bool>* stop) = 0;
  // A records database holding the best records of the tuned tasks under tuned.device_key, for
  // the build: the backend's own, or written to `scratch_db`.
  virtual absl::StatusOr<std::string> BestRecords(const TunedModel& tuned,
                                                  const std::string& scratch_db) = 0;
  // Times two module files in turns on a device of tuning.device_key at its measure threads.
  // Empty where it cannot (the reason in `why_not`): the module is then built but not timed.
  virtual ModuleRaceTimer Timer(const target::Target& target, const tuner::TuningRequest& tuning,
                                int rounds, std::string* why_not) = 0;
  // Keeps the end-to-end latency with the tuning (a farm stores it with the model job).
  virtual absl::Status StoreLatency(const TunedModel& tuned, const EndToEndLatency& latency) = 0;
};

// Extracts the model's tasks for the backend's target, tunes them, and with request.output builds,
// races and times as said above. Errors: the model's import, the backend's, the build's; a
// tuning that stopped or failed is a result (tuned.ending), not an error.
absl::StatusOr<ModelTuneResult> TuneModel(const ModelTuneRequest& request,
                                          ModelTuneBackend& backend, ModelTuneObserver& observer,
                                          const std::atomic<bool>* stop = nullptr);

// TuneModel's last step for a tuning that already ended (`tuned`, e.g. a farm's model job
// followed elsewhere): with request.output and a tuning that succeeded, the build, race and
// end-to-end timing on `target` (the backend's ResolveTarget of request.tuning); otherwise
// `tuned` as it is.
absl::StatusOr<ModelTuneResult> FinishModelTuning(const ModelTuneRequest& request,
                                                  const target::Target& target, TunedModel tuned,
                                                  ModelTuneBackend& backend,
                                                  ModelTuneObserver& observer);

}  // namespace tunefarm::driver
