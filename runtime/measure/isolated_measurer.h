// IsolatedMeasurer: checks and times candidates one at a time in a persistent measure child
// (tunefarm-measure or any program serving the measure protocol), restarting it after anything
// that may have corrupted it. The local runner and the farm's device-side worker both use it.
#pragma once

#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/measure/error_kind.h"
#include "runtime/measure/measure_protocol.h"

namespace tunefarm::runtime::measure {

class MeasureChild;

struct MeasureOutcome {
  ErrorKind kind = ErrorKind::kOk;  // ok, runtime_error, run_timeout, wrong_answer, worker_lost
  std::string message;
  std::vector<double> repeat_seconds;  // every repeat's mean; empty unless ok
  // From the measure child (MeasureResponse): how far to trust the repeats.
  double spread = 0;
  double canary_ratio = 1;
  int attempts = 1;
  bool noisy = false;
  // The window in which this process held the host's timing lock for the candidate, on the
  // steady clock (CLOCK_MONOTONIC: comparable between the processes of one host); held false
  // when it ran without the lock (off, or not had in time), which `timing_note` explains.
  double window_start_s = 0;
  double window_end_s = 0;
  bool timed_alone = false;
  std::string timing_note;
};

class IsolatedMeasurer {
 public:
  // `program` is started as the child (with `program_args`, e.g. a flag that makes a worker
  // binary serve the protocol itself). `reference_timeout_s` is the deadline of a reference's
  // first, solo run.
  // `timing_lock_path` names the host timing lock (runtime/measure/host_timing_lock.h; empty:
  // its default); the candidate exchange holds it exclusively, a reference's first run shared.
  IsolatedMeasurer(std::string program, std::vector<std::string> program_args = {},
                   double reference_timeout_s = 300, std::string timing_lock_path = "");
  ~IsolatedMeasurer();
  IsolatedMeasurer(const IsolatedMeasurer&) = delete;
  IsolatedMeasurer& operator=(const IsolatedMeasurer&) = delete;

  // Measures `request` (its id is replaced) with `timeout_s` for the candidate. A reference not
  // seen before runs alone first under the reference deadline, so a slow naive schedule neither
  // times the candidate out nor eats its time. Never throws; every failure is an outcome.
  MeasureOutcome Measure(MeasureRequest request, double timeout_s);

  // Children started so far: one more after each outcome other than ok.
  int children_started() const { return children_started_; }
  // Kills the child now (e.g. a cancelled lease); the next Measure starts a fresh one.
  void Reset();

 private:
  bool EnsureChild(std::string* error);

  std::string program_;
  std::vector<std::string> program_args_;
  double reference_timeout_s_;
  std::string timing_lock_path_;
  std::unique_ptr<MeasureChild> child_;
  int children_started_ = 0;
  std::set<std::string> references_ready_;
  int64_t next_id_ = 1;
};

}  // namespace tunefarm::runtime::measure
