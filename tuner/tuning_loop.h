// The tuning loop of one task: propose a batch (search strategy) -> build -> measure -> record
// -> learn, until the trial budget, early stopping, an exhausted space or a stop request.
#pragma once

#include <atomic>
#include <functional>
#include <map>
#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "runtime/clock.h"
#include "tuner/measure.h"
#include "tuner/record.h"
#include "tuner/record_store.h"
#include "tuner/search_strategy.h"
#include "tuner/task.h"

namespace tunefarm::tuner {

struct TuneProgress {
  int trials_done = 0;   // measured in this run
  int trials_total = 0;  // the budget
  int errors = 0;        // trials of this run that did not end ok
  std::map<ErrorKind, int> error_counts;
  double best_seconds = 0;  // best median so far (earlier records included); 0: none yet
  double best_gflops = 0;
  std::string best_config_json;
  double elapsed_seconds = 0;
};

struct TuneOptions {
  int trials = 100;
  int batch_size = 16;
  // Stop after this many trials without a new best; 0: never.
  int early_stopping = 0;
  std::string job_id;
  // Measure the template's default config first (unless already recorded), so a tuned result is
  // never worse than the library's default.
  bool measure_default_first = true;
  // Feed this task's earlier records (same workload, target and device key) to the strategy and
  // never measure those configs again.
  bool resume = true;
  // Polled between steps: set it (e.g. from a SIGINT handler) to stop after the current step with
  // everything measured so far recorded.
  const std::atomic<bool>* stop = nullptr;
  std::function<void(const TuneProgress&)> on_progress;
  // Where the strategy's cost model is saved after the run; empty: ModelScope(task, device).
  std::string model_scope;
  const runtime::Clock* clock = &runtime::SystemClock();  // record timestamps
  // What the runner evicts before every timed call (runtime::measure::TimedFlush): records say so,
  // and only records timed the same way are resumed, compared and learnt from.
  CacheFlush cache_flush = CacheFlush::kNone;
};

struct TuneSummary {
  TuneProgress progress;
  std::optional<Record> best;  // the best ok record of this task on this device, runs included
  bool exhausted = false;      // the space had nothing left to propose
  bool early_stopped = false;
  bool interrupted = false;
};

// `store` may be null (nothing recorded, no resume). Errors are infrastructure failures only (the
// database cannot be written); every candidate's failure is a record.
absl::StatusOr<TuneSummary> Tune(const Task& task, SearchStrategy& strategy, Builder& builder,
                                 Runner& runner, RecordStore* store, const TuneOptions& options);

// "<template>|<target>|<device key>", with "|cold" appended for timings from flushed caches and
// "|cold-weights" for timings with the weights evicted: cost models are learnt per template,
// device and way of timing.
std::string ModelScope(const Task& task, const std::string& device_key, CacheFlush cache_flush);

// The record of one measured candidate of `options`' job and timing, stamped with its clock's time.
Record MakeRecord(const Task& task, const space::Config& config, const MeasureResult& result,
                  const std::string& device_key, const TuneOptions& options);
// The measurement a stored record holds (what a resumed run teaches its strategy).
MeasureResult ResultOfRecord(const Record& record);

}  // namespace tunefarm::tuner
