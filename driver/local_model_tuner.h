// The ModelTuneBackend of `model tune` without a farm: the model's tasks tuned in this process by
// the local builder and runner under one budget (a task scheduler gives each batch to the task
// expected to cut the model's latency most), every result recorded in one database, and the
// modules timed here.
#pragma once

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "compiler/target/target.h"
#include "driver/model_tune.h"
#include "tuner/measure.h"

namespace tunefarm::driver {

// A GPU target to measure on this machine: FailedPrecondition "no OpenCL device present (...)"
// where there is none; else `target` (a plain `cuda` becomes this GPU's arch), with `device_key`
// set to the device's name ("local-nvidia-h100-...") when it is empty.
absl::StatusOr<target::Target> ResolveLocalGpu(const std::string& text,
                                               const target::Target& target,
                                               std::string* device_key);

class LocalModelTuner : public ModelTuneBackend {
 public:
  // Records go to the database at `db` (created when missing). The request's empty device key is
  // the local runner's default ("local-<cpu>", or the GPU's name for a GPU target); its measure
  // threads are also the end-to-end timing's.
  explicit LocalModelTuner(std::string db) : db_(std::move(db)) {}

  // InvalidArgument for another machine's CPU; a GPU target as ResolveLocalGpu gives it.
  absl::StatusOr<target::Target> ResolveTarget(tuner::TuningRequest& tuning) override;
  absl::StatusOr<TunedModel> Tune(const ModelTuning& tuning, const target::Target& target,
                                  const ModelTuneRequest& request, ModelTuneObserver& observer,
                                  const std::atomic<bool>* stop) override;
  absl::StatusOr<std::string> BestRecords(const TunedModel& tuned,
                                          const std::string& scratch_db) override;
  ModuleRaceTimer Timer(const target::Target& target, const tuner::TuningRequest& tuning,
                        int rounds, std::string* why_not) override;
  // Nothing to keep: the caller has the latency.
  absl::Status StoreLatency(const TunedModel&, const EndToEndLatency&) override {
    return absl::OkStatus();
  }

 private:
  std::string db_;
};

}  // namespace tunefarm::driver
