// RemoteRunner: the tuner's Runner for the farm. It turns each built candidate into MeasureWork
// for the job's device key, submits it to the dispatcher, and waits for the fleet's outcomes,
// storing each record the moment it arrives (a tracker killed mid-batch keeps every reported
// result). The tuning loop sees an ordinary Runner.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "runtime/clock.h"
#include "tracker/dispatcher.h"
#include "tracker/lease_sender.h"
#include "tuner/measure.h"
#include "tuner/record_store.h"

namespace tunefarm::tracker {

class Metrics;

struct RemoteRunnerOptions {
  std::string device_key;
  std::string job_id;
  tuner::MeasureOptions measure;
  uint64_t seed = 1;                        // of the generated inputs
  int64_t max_artifact_bytes = 64ll << 20;  // a bigger library is a build_error record
  // Set by the job's owner to cancel: Run returns at once, unfinished work marked cancelled.
  const std::atomic<bool>* stop = nullptr;
  Metrics* metrics = nullptr;  // when set, each record's database write is timed
  const runtime::Clock* clock = &runtime::SystemClock();  // when work is submitted
};

// Not thread-safe: one Run at a time (the job's tuning thread). `store` may be null; otherwise
// it is used only from the thread calling Run.
class RemoteRunner final : public tuner::Runner {
 public:
  RemoteRunner(Dispatcher& dispatcher, LeaseSender& sender, tuner::RecordStore* store,
               RemoteRunnerOptions options);
  ~RemoteRunner() override;

  // Failed builds pass through (recorded by the loop). Ok builds are measured by workers of the
  // device key: ok, wrong_answer, runtime_error, run_timeout, or worker_lost when the candidate's
  // leases kept being lost. Waits while no worker of the key is connected (the job says so).
  std::vector<tuner::MeasureResult> Run(const std::vector<tuner::MeasureInput>& inputs,
                                        const std::vector<tuner::BuildResult>& builds,
                                        double best_seconds) override;
  std::string device_key() const override { return options_.device_key; }

  // Wakes a Run blocked on outcomes so it sees the stop flag (called after setting it).
  void Interrupt();

  struct Shared;  // outcomes handed from dispatcher callbacks to the waiting Run; in the .cc

 private:
  Dispatcher& dispatcher_;
  LeaseSender& sender_;
  tuner::RecordStore* store_;
  RemoteRunnerOptions options_;
  std::shared_ptr<Shared> shared_;
};

}  // namespace tunefarm::tracker
