#include "runtime/measure/canary.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <sys/stat.h>
#include <unistd.h>

#include "absl/strings/str_cat.h"
#include "runtime/core/c_abi.h"
#include "runtime/core/thread_pool.h"
#include "runtime/measure/host_timing_lock.h"
#include "runtime/time_evaluator.h"

namespace tunefarm::runtime::measure {
namespace {

constexpr size_t kWordsPerThread = (256 << 10) / sizeof(uint64_t);

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

// The host's best seconds per pass on `threads` threads, shared through a small file: "<seconds>
// <unix time>". An entry over an hour old is ignored (the VM may have moved to another machine).
// The canary's own code is timed, so its speed depends on how this binary was compiled: an
// instrumented (sanitizer) or unoptimized build runs it several times slower than a release one on
// the same machine, and would otherwise find every phase slow against a release build's best.
constexpr const char* BuildFlavour() {
#if defined(__SANITIZE_THREAD__)
  return "-tsan";
#elif defined(__SANITIZE_ADDRESS__)
  return "-asan";
#elif !defined(__OPTIMIZE__)
  return "-O0";
#else
  return "";
#endif
}

std::string BaselineFile(const std::string& prefix, int threads) {
  return absl::StrCat(prefix, ".canary-", threads, "t", BuildFlavour());
}

double ReadHostBest(const std::string& file) {
  FILE* f = std::fopen(file.c_str(), "r");
  if (f == nullptr) return 0;
  double per_pass = 0;
  long long written = 0;
  const bool read = std::fscanf(f, "%lf %lld", &per_pass, &written) == 2;
  std::fclose(f);
  const long long now = static_cast<long long>(std::time(nullptr));
  if (!read || !std::isfinite(per_pass) || per_pass <= 0 || now - written > 3600) return 0;
  return per_pass;
}

// Written whole under a temporary name and renamed over the old one: a reader sees either.
void WriteHostBest(const std::string& file, double per_pass) {
  const std::string tmp = absl::StrCat(file, ".", ::getpid());
  FILE* f = std::fopen(tmp.c_str(), "w");
  if (f == nullptr) return;
  std::fprintf(f, "%.17g %lld\n", per_pass, static_cast<long long>(std::time(nullptr)));
  const bool ok = std::fclose(f) == 0;
  (void)::chmod(tmp.c_str(), 0666);
  if (!ok || std::rename(tmp.c_str(), file.c_str()) != 0) std::remove(tmp.c_str());
}

}  // namespace

Canary::Canary(std::function<double()> now_seconds, std::string host_baseline)
    : now_(now_seconds ? std::move(now_seconds) : runtime::SteadySeconds),
      host_baseline_(host_baseline.empty() ? HostTimingLock::DefaultPath()
                                           : std::move(host_baseline)) {}

double Canary::TimeOnce() {
  const int threads = std::max(1, NumThreads());
  threads_ = threads;
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
      const double start = runtime::SteadySeconds();
      StreamBuffer(0, 1, &pass);
      if ((runtime::SteadySeconds() - start) * 1000 >= target_ms_ || passes_ >= (uint64_t{1} << 20))
        break;
    }
  }
  double best = TimeOnce();
  for (int i = 1; i < runs; ++i) best = std::min(best, TimeOnce());
  return best;
}

double Canary::Ratio(double seconds) {
  if (passes_ == 0 || !(seconds > 0)) return 1.0;
  const double per_pass = seconds / static_cast<double>(passes_);
  if (best_per_pass_ <= 0 || per_pass < best_per_pass_) best_per_pass_ = per_pass;
  if (host_baseline_ != "off") {
    const std::string file = BaselineFile(host_baseline_, threads_);
    const double host = ReadHostBest(file);
    if (host > 0 && host < best_per_pass_) {
      best_per_pass_ = host;
    } else if (host <= 0 || best_per_pass_ < host) {
      WriteHostBest(file, best_per_pass_);
    }
  }
  return per_pass / best_per_pass_;
}

}  // namespace tunefarm::runtime::measure
