// The ModelTuneBackend of `model tune --tracker`: the model's tasks submitted as one model job
// (a job per task under one budget, scheduled on the tracker), followed until it ends; the build
// reads the farm's best records, and the race and the end-to-end timing run in remote sessions on
// a worker of the key, whose latency is stored with the model job.
#pragma once

#include <string>

#include "client/farm_client.h"
#include "driver/model_tune.h"
#include "tuner/measure.h"

namespace tunefarm::client {

// Where the model job goes and how it is followed; what it asks is the request's tuning (its
// device key names the workers, its measure threads are also the race's and the timing's).
struct FarmTuningSettings {
  FarmAddress farm;
  int parallel_tasks = 2;  // tasks whose jobs tune at once on the key's workers
  bool detach = false;     // submit and return (TunedModel::Ending::kSubmitted)
};

class FarmModelTuner : public driver::ModelTuneBackend {
 public:
  explicit FarmModelTuner(FarmTuningSettings settings) : settings_(std::move(settings)) {}

  // The target as this machine reads it (a bare `llvm`: this CPU); the tracker files the records
  // under its canonical string.
  absl::StatusOr<target::Target> ResolveTarget(tuner::TuningRequest& tuning) override;
  // `stop` cancels the model job, whose final state then ends the watch.
  absl::StatusOr<driver::TunedModel> Tune(const driver::ModelTuning& tuning,
                                          const target::Target& target,
                                          const driver::ModelTuneRequest& request,
                                          driver::ModelTuneObserver& observer,
                                          const std::atomic<bool>* stop) override;
  // The tracker's best record of each task, and every record of each Winograd task (each tile's
  // best is a rival the race may time).
  absl::StatusOr<std::string> BestRecords(const driver::TunedModel& tuned,
                                          const std::string& scratch_db) override;
  driver::ModuleRaceTimer Timer(const target::Target& target, const tuner::TuningRequest& tuning,
                                int rounds, std::string* why_not) override;
  absl::Status StoreLatency(const driver::TunedModel& tuned,
                            const driver::EndToEndLatency& latency) override;

  // The model job `job_id` as it stands now (for driver::FinishModelTuning of a job submitted
  // and followed elsewhere). NotFound from the tracker for an unknown id.
  absl::StatusOr<driver::TunedModel> ModelJob(const std::string& job_id);

 private:
  absl::StatusOr<FarmClient*> Client();

  FarmTuningSettings settings_;
  std::unique_ptr<FarmClient> client_;
};

}  // namespace tunefarm::client
