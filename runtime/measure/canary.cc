#include "runtime/measure/canary.h"

#include <algorithm>
#include <chrono>

#include "runtime/core/c_abi.h"

namespace tunefarm::runtime::measure {
namespace {

double SteadySeconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

struct Chain {
  uint64_t iterations;
  uint64_t sink[64];  // one result per task, so the compiler cannot drop the work
};

// A multiply-add chain: every step waits for the one before, so it runs at one step per few
// cycles whatever the core, and it touches no memory.
int32_t RunChain(int32_t task_id, int32_t /*num_tasks*/, void* closure) {
  Chain* chain = static_cast<Chain*>(closure);
  uint64_t x = static_cast<uint64_t>(task_id) + 1;
  for (uint64_t i = 0; i < chain->iterations; ++i) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    asm volatile("" : "+r"(x));
  }
  chain->sink[task_id % 64] = x;
  return 0;
}

}  // namespace

Canary::Canary(std::function<double()> now_seconds)
    : now_(now_seconds ? std::move(now_seconds) : SteadySeconds) {}

double Canary::TimeOnce() {
  Chain chain{iterations_, {}};
  const double start = now_();
  TFBackendParallelLaunch(RunChain, &chain, 0);
  return now_() - start;
}

double Canary::Time(int runs) {
  if (iterations_ == 0) {
    // Sized once per process from the real clock (an injected one may be skewed on purpose).
    for (iterations_ = 1024;; iterations_ *= 2) {
      Chain chain{iterations_, {}};
      const double start = SteadySeconds();
      RunChain(0, 1, &chain);
      if ((SteadySeconds() - start) * 1000 >= target_ms_ || iterations_ >= (uint64_t{1} << 32)) {
        break;
      }
    }
  }
  double best = TimeOnce();
  for (int i = 1; i < runs; ++i) best = std::min(best, TimeOnce());
  return best;
}

double Canary::Ratio(double seconds) {
  if (best_seconds_ <= 0 || seconds < best_seconds_) best_seconds_ = seconds;
  return best_seconds_ > 0 ? seconds / best_seconds_ : 1.0;
}

}  // namespace tunefarm::runtime::measure
