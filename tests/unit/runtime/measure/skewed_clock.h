// Clocks for timing tests that must come out the same on a busy machine.
#pragma once

#include <functional>

namespace tunefarm::runtime::measure::testing {

// Every read advances 0.1 ms, or twice that for the next N reads after RunSlowFor(N): a canary
// timed on it takes the same time run after run, and twice as long in a "slow phase".
class SteppingClock {
 public:
  void RunSlowFor(int reads) { slow_reads_ = reads; }
  std::function<double()> Function() {
    return [this] {
      now_ += slow_reads_ > 0 ? 2e-4 : 1e-4;
      if (slow_reads_ > 0) --slow_reads_;
      return now_;
    };
  }

 private:
  double now_ = 0;
  int slow_reads_ = 0;
};

// A clock only the test's calls advance, for interleaved timings that must come out exactly.
struct ManualClock {
  double now = 0;
  std::function<double()> Function() {
    return [this] { return now; };
  }
};

}  // namespace tunefarm::runtime::measure::testing
