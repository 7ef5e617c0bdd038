// TuningSession: one task's tuning as a state machine that never blocks. It proposes candidates,
// takes their results in any order and grouping as they arrive, records them and teaches the
// strategy. Tune() drives it batch by batch (the local runner); the tracker's job engine drives
// it as builds and measurements finish, keeping candidates in flight.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "tuner/measure.h"
#include "tuner/record.h"
#include "tuner/record_store.h"
#include "tuner/search_strategy.h"
#include "tuner/task.h"
#include "tuner/tuning_loop.h"

namespace tunefarm::tuner {

class TuningSession {
 public:
  // `store` may be null (nothing recorded, no resume). `options.trials` is this session's
  // budget; `options.batch_size` is how many results the strategy learns from at once.
  TuningSession(const Task& task, SearchStrategy& strategy, RecordStore* store,
                std::string device_key, const TuneOptions& options);

  // Reads the task's earlier records (with options.resume) and teaches them to the strategy;
  // those configs are never proposed again.
  absl::Status Start();

  // Up to `max` configs to build and measure next; they are in flight from now on. The default
  // config comes first, alone (unless recorded). Empty when nothing may be proposed now: the
  // budget is spent or in flight, a stop was requested, early stopping hit, or the strategy has
  // nothing left (the space is exhausted once nothing is in flight either).
  absl::StatusOr<std::vector<space::Config>> Propose(int max);

  // Results of configs in flight, in any order and grouping. They are stored in one batch before
  // anything else happens (the one record writer of local runs and farm jobs); a cancelled result
  // only leaves flight. The strategy learns once batch_size results wait or nothing is in
  // flight, so driven batch by batch the session learns exactly as the synchronous loop did.
  absl::Status Complete(const std::vector<space::Config>& configs,
                        std::vector<MeasureResult> results);

  int in_flight() const { return static_cast<int>(in_flight_.size()); }
  // Nothing in flight and nothing more will be proposed.
  bool done() const;
  const TuneProgress& progress() const { return summary_.progress; }

  // Teaches the strategy what still waits, saves its cost model and reads the best record.
  absl::StatusOr<TuneSummary> Finish();

 private:
  bool StopRequested() const;
  bool NoteBest(const space::Config& config, const MeasureResult& result);
  absl::Status Learn();
  void SaveModel();
  double Elapsed() const;

  const Task& task_;
  SearchStrategy& strategy_;
  RecordStore* store_;
  const std::string device_key_;
  const TuneOptions options_;
  const std::chrono::steady_clock::time_point start_;
  std::set<int64_t> seen_;                       // recorded earlier, measured, or in flight
  std::set<int64_t> in_flight_;                  // proposed, no result yet
  std::optional<space::Config> default_config_;  // proposed first, alone
  bool strategy_empty_ = false;                  // the last proposal found nothing new
  int since_best_ = 0;
  std::vector<space::Config> to_learn_;
  std::vector<MeasureResult> to_learn_results_;
  std::optional<Record> best_record_;
  TuneSummary summary_;
};

}  // namespace tunefarm::tuner
