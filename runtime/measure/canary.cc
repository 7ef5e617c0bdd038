#include "runtime/measure/canary.h"

#include <algorithm>
#include <chrono>

#include "runtime/core/c_abi.h"
#include "runtime/core/thread_pool.h"

namespace tunefarm::runtime::measure {
namespace {

constexpr size_t kWordsPerThread = (256 << 10) / sizeof(uint64_t);

double SteadySeconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

struct Pass {
  const uint64_t* buffers;
  int threads;
  uint64_t passes;
  uint64_t sink[64];  // one result per task, so the compiler cannot drop the work
};

// Four independent sums over the task's buffer, `passes` times: bound by loads and adds.
int32_t StreamBuffer(int32_t task_id, int32_t /*num_tasks*/, void* closure) {
  Pass* p = static_cast<Pass*>(closure);
  const uint64_t* b = p->buffers + static_cast<size_t>(task_id % p->threads) * kWordsPerThread;
  uint64_t s0 = 0, s1 = 0, s2 = 0, s3 = 0;
  for (uint64_t r = 0; r < p->passes; ++r) {
    for (size_t i = 0; i < kWordsPerThread; i += 4) {
      s0 += b[i];
      s1 += b[i + 1];
      s2 += b[i + 2];
      s3 += b[i + 3];
    }
    asm volatile("" : "+r"(s0), "+r"(s1), "+r"(s2), "+r"(s3));
  }
  p->sink[task_id % 64] = s0 + s1 + s2 + s3;
  return 0;
}

}  // namespace

Canary::Canary(std::function<double()> now_seconds)
    : now_(now_seconds ? std::move(now_seconds) : SteadySeconds) {}

double Canary::TimeOnce() {
  const int threads = std::max(1, NumThreads());
  if (buffers_.size() < static_cast<size_t>(threads) * kWordsPerThread) {
    buffers_.assign(static_cast<size_t>(threads) * kWordsPerThread, 1);
  }
  Pass pass{buffers_.data(), threads, passes_, {}};
  const double start = now_();
  TFBackendParallelLaunch(StreamBuffer, &pass, threads);
  return now_() - start;
}

double Canary::Time(int runs) {
  if (passes_ == 0) {
    // Sized once per process, on one thread and the real clock (an injected one may be skewed on
    // purpose), to about `target_ms` a run.
    buffers_.assign(kWordsPerThread, 1);
    for (passes_ = 1;; passes_ *= 2) {
      Pass pass{buffers_.data(), 1, passes_, {}};
      const double start = SteadySeconds();
      StreamBuffer(0, 1, &pass);
      if ((SteadySeconds() - start) * 1000 >= target_ms_ || passes_ >= (uint64_t{1} << 20)) break;
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
