// Checks and times one candidate kernel given library paths: the work of the measure child
// process (tunefarm-measure) and, later, of the farm's device-side worker. Runs generated code
// in this process, so a crashing candidate takes the process down: run it in a child.
#pragma once

#include "runtime/measure/measure_protocol.h"
#include "runtime/measure/reference_outputs.h"

namespace tunefarm::runtime::measure {

class CandidateMeasurer {
 public:
  // Loads the candidate, runs it once on the reference's inputs (restored for every candidate),
  // compares every tensor with the reference's result (wrong_answer names the first mismatch),
  // then times it with the runtime's time evaluator. A first run slower than
  // slow_cutoff_ratio * best_seconds is the only repeat. Failures to load, bind or run are
  // runtime_error; this call itself never fails.
  MeasureResponse Measure(const MeasureRequest& request);

 private:
  ReferenceOutputs references_;
  int threads_ = -1;  // the width last set, so the pool restarts only when it changes
};

}  // namespace tunefarm::runtime::measure
