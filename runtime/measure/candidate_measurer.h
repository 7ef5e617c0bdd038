// Checks and times one candidate kernel given library paths: the work of the measure child
// process (tunefarm-measure) and, later, of the farm's device-side worker. Runs generated code
// in this process, so a crashing candidate takes the process down: run it in a child.
#pragma once

#include <functional>

#include "runtime/measure/canary.h"
#include "runtime/measure/measure_protocol.h"
#include "runtime/measure/reference_outputs.h"
#include "runtime/measure/stable_timing.h"

namespace tunefarm::runtime::measure {

class CandidateMeasurer {
 public:
  // `canary_clock` (default: the steady clock) times the canary; tests skew it to fake a slow
  // phase of the machine.
  explicit CandidateMeasurer(StableTimingPolicy policy = {},
                             std::function<double()> canary_clock = {})
      : policy_(policy), canary_(std::move(canary_clock)) {}

  // Loads the candidate, runs it once on the reference's inputs (restored for every candidate),
  // compares every tensor with the reference's result (wrong_answer names the first mismatch),
  // then times it with the runtime's time evaluator between two runs of the canary, again while
  // the repeats spread or the canary saw a slow phase (TimeStably). A first run slower than
  // slow_cutoff_ratio * best_seconds is the only repeat. Failures to load, bind or run are
  // runtime_error; this call itself never fails.
  MeasureResponse Measure(const MeasureRequest& request);

 private:
  StableTimingPolicy policy_;
  Canary canary_;
  ReferenceOutputs references_;
  int threads_ = -1;  // the width last set, so the pool restarts only when it changes
};

}  // namespace tunefarm::runtime::measure
