// Canary: a fixed piece of work timed around a candidate's timing, to tell a slow phase of the
// machine (a frequency drop, a neighbour's load on the cores the kernel uses) from a slow
// kernel. It runs the same chain of dependent integer operations on every thread of the
// runtime's pool, so its time depends on the cores' clock and share and on nothing else (no
// memory traffic). Its best time in this process is the reference; a ratio over that best says
// how much slower the machine is now.
#pragma once

#include <cstdint>
#include <functional>

namespace tunefarm::runtime::measure {

class Canary {
 public:
  // `now_seconds` (default: the steady clock) is what tests replace to inject a slow phase.
  explicit Canary(std::function<double()> now_seconds = {});

  // Times the work `runs` times on the pool's width and returns the fastest run's seconds; the
  // first call sizes the work to about `target_ms`.
  double Time(int runs = 3);

  // `seconds` over the best time seen so far (1 before any); updates the best.
  double Ratio(double seconds);

  uint64_t iterations() const { return iterations_; }

 private:
  double TimeOnce();

  std::function<double()> now_;
  uint64_t iterations_ = 0;
  double best_seconds_ = 0;
  double target_ms_ = 0.5;
};

}  // namespace tunefarm::runtime::measure
