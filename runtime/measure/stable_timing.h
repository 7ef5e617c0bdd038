// The measurement protocol's inner step: a candidate's repeats are timed between two runs of the
// canary and timed again (a bounded number of times) while they disagree with each other or the
// canary says the machine was in a slow phase. What was kept says how far to trust it.
#pragma once

#include <functional>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "runtime/measure/canary.h"

namespace tunefarm::runtime::measure {

struct StableTimingPolicy {
  double max_spread = 0.05;  // repeats whose (max - min) / min is over this are timed again
  int max_attempts = 3;      // timings of the repeats at most, the first included
  // The canary around an attempt more than this much slower than its best: a slow phase. On the
  // shared VMs here the canary's ratios fall in two groups, 1.00-1.10 (the machine's jitter) and
  // 1.35-1.55 (a neighbour on the core): the line goes between them.
  double slow_phase_ratio = 1.25;
  // After a slow phase, a pause before the next attempt: on a shared VM the phases last from a
  // tenth of a second to a few, and timing again at once mostly finds the same one.
  double slow_phase_pause_ms = 100;
};

struct StableTiming {
  std::vector<double> repeat_seconds;  // the kept attempt's repeats
  double spread = 0;                   // theirs: (max - min) / min
  // The canary around the kept attempt over its best in this process (the slower of the runs
  // before and after): 1.0 is the machine at its fastest.
  double canary_ratio = 1;
  int attempts = 0;
  // The kept attempt is still over max_spread, or was timed in a slow phase: a number to retime.
  bool noisy = false;
};

// (max - min) / min of the samples; 0 for fewer than two or a non-positive minimum.
double Spread(absl::Span<const double> seconds);

// Calls `time_repeats` (one attempt: all the repeats) between two canary timings until an
// attempt is within the policy or max_attempts were made. Keeps the best attempt: one outside a
// slow phase before one inside, then the lowest spread. The first error is returned as is.
absl::StatusOr<StableTiming> TimeStably(
    const std::function<absl::StatusOr<std::vector<double>>()>& time_repeats, Canary& canary,
    const StableTimingPolicy& policy = {});

}  // namespace tunefarm::runtime::measure
