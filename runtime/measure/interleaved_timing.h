// Interleaved timing: two or more callables timed in alternating rounds (A B, B A, A B, ...), so
// that a slow phase of the machine or a drift of its clock falls on each of them alike, and the
// ratio of each to the first with a 95 % confidence interval over the rounds. This is how a
// published speedup is verified and how `tunefarm time --compare` answers.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "runtime/measure/canary.h"

namespace tunefarm::runtime::measure {

struct InterleavedOptions {
  int rounds = 10;          // each callable is timed once per round; at least 2
  double min_slot_ms = 50;  // one timing ("slot") is at least this many back-to-back calls' time
  double warmup_ms = 20;    // untimed calls of each callable before the first round
  // The clock; tests replace it. Default: the steady clock.
  std::function<double()> now_seconds;
  // Set: timed around every round; a round in which it ran more than `slow_phase_ratio` over its
  // best was timed in a slow phase of the machine and is timed again (at most `rounds` times in
  // all), so the medians are the machine's normal ones. The ratios need none of this: a round's
  // slots share its phase.
  Canary* canary = nullptr;
  double slow_phase_ratio = 1.25;
};

// A time ratio (candidate over baseline) with its 95 % confidence interval: the geometric mean of
// the rounds' ratios, and exp(mean ± t · sd / sqrt(n)) of their logarithms (Student's t, n - 1
// degrees of freedom; the rounds are paired, so a slow phase cancels).
struct RatioInterval {
  double ratio = 1;
  double low = 1;
  double high = 1;
  int rounds = 0;
  // Whether the interval excludes 1.0 (the two differ beyond the noise of these rounds).
  bool Measurable() const { return low > 1.0 || high < 1.0; }
};

struct InterleavedTiming {
  std::vector<std::vector<double>> seconds;  // [callable][round]: seconds per call
  std::vector<int> calls_per_slot;           // [callable]
  std::vector<RatioInterval> over_first;     // [callable]: its time over the first's ([0]: 1)
  int rounds_redone = 0;                     // rounds timed again after a slow phase
  int slow_rounds_kept = 0;                  // slow rounds kept when the extra rounds ran out
};

// The first error a callable returns stops the timing and is returned as is.
absl::StatusOr<InterleavedTiming> TimeInterleaved(
    const std::vector<std::function<absl::Status()>>& calls, const InterleavedOptions& options);

// The interval of candidate[i] / baseline[i] over paired rounds; InvalidArgument for fewer than
// two pairs, different lengths or a time that is not positive.
absl::StatusOr<RatioInterval> PairedRatio(absl::Span<const double> baseline,
                                          absl::Span<const double> candidate);

// Two-sided 95 % quantile of Student's t with `dof` degrees of freedom (>= 1).
double StudentT975(int dof);

// How a user reads a time ratio `time` (new over old) as a speedup (old over new):
// "1.23x faster [1.18x, 1.29x] (95 % CI, 10 rounds)", "1.10x slower [...]", or
// "no measurable gain: 1.01x [0.98x, 1.04x] (95 % CI, 10 rounds)" when the interval holds 1.0.
std::string DescribeSpeedup(const RatioInterval& time);

}  // namespace tunefarm::runtime::measure
