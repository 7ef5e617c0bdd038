// Canary: a fixed piece of work timed around a candidate's timing, to tell a slow phase of the
// machine (a frequency drop, a neighbour on the kernel's cores or their SMT siblings) from a slow
// kernel. Every thread of the runtime's pool streams its own 256 KiB buffer (in L2 on every CPU
// we target) with independent loads and adds: throughput-bound, as kernels are, so it slows
// down with the core's clock and with whatever shares the core's ports and L2. (A chain of
// dependent operations does not: on a shared VM, kernels ran 50 % slower in phases where such a
// chain ran at full speed and this pass ran 50 % slower too.) Its best time in this process is
// the reference; a ratio over that best says how much slower the machine is now.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

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

  uint64_t passes() const { return passes_; }

 private:
  double TimeOnce();

  std::function<double()> now_;
  std::vector<uint64_t> buffers_;  // one 256 KiB buffer per pool thread
  uint64_t passes_ = 0;
  double best_seconds_ = 0;
  double target_ms_ = 0.5;
};

}  // namespace tunefarm::runtime::measure
