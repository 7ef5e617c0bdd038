// A steady clock a test can make run at double speed for its next N reads: a canary timed on it
// then looks twice as slow, as it would in a slow phase of the machine.
#pragma once

#include <chrono>
#include <functional>

namespace tunefarm::runtime::measure::testing {

class SkewedClock {
 public:
  SkewedClock() : last_(Steady()) {}
  void RunFastFor(int reads) { fast_reads_ = reads; }
  std::function<double()> Function() {
    return [this] {
      const double now = Steady();
      if (fast_reads_ > 0) {
        skew_ += now - last_;
        --fast_reads_;
      }
      last_ = now;
      return now + skew_;
    };
  }

 private:
  static double Steady() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
  }
  int fast_reads_ = 0;
  double skew_ = 0;
  double last_;
};

// A clock only the test's calls advance, for interleaved timings that must come out exactly.
struct ManualClock {
  double now = 0;
  std::function<double()> Function() {
    return [this] { return now; };
  }
};

}  // namespace tunefarm::runtime::measure::testing
