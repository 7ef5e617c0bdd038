// Canary: a fixed piece of work timed around a candidate's timing, to tell a slow phase of the
// machine (a frequency drop, a neighbour on the kernel's cores or their SMT siblings) from a slow
// kernel. Every thread of the runtime's pool streams its own 256 KiB buffer (in L2 on every CPU
// we target) with independent loads and adds: throughput-bound, as kernels are, so it slows
// down with the core's clock and with whatever shares the core's ports and L2. (A chain of
// dependent operations does not: on a shared VM, kernels ran 50 % slower in phases where such a
// chain ran at full speed and this pass ran 50 % slower too.) The reference is the best time per
// pass on this many threads that any process of the host saw in the last hour (a file beside the
// host timing lock, host_timing_lock.h), so a measure child that starts in a slow phase knows it;
// a ratio over that best says how much slower the machine is now.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace tunefarm::runtime::measure {

class Canary {
 public:
  // `now_seconds` (default: the steady clock) is what tests replace to inject a slow phase.
  // `host_baseline`: the prefix of the host's baseline files (empty: beside the host timing lock;
  // "off": this process's own best only, as the tests that skew the clock use).
  explicit Canary(std::function<double()> now_seconds = {}, std::string host_baseline = "");

  // Times the work `runs` times on the pool's width and returns the fastest run's seconds; the
  // first call sizes the work to about `target_ms`.
  double Time(int runs = 3);

  // `seconds` (a Time() of this canary) over the best seen so far, here or by the host's other
  // processes (1 before any); updates both bests.
  double Ratio(double seconds);

  uint64_t passes() const { return passes_; }

 private:
  double TimeOnce();

  std::function<double()> now_;
  std::string host_baseline_;
  std::vector<uint64_t> buffers_;  // one 256 KiB buffer per pool thread
  uint64_t passes_ = 0;
  int threads_ = 1;  // of the last Time()
  double best_per_pass_ = 0;
  double target_ms_ = 0.5;
};

}  // namespace tunefarm::runtime::measure
