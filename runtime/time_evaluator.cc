#include "runtime/time_evaluator.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <fstream>
#include <memory>
#include <string>
#include <thread>
#include <unistd.h>
#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include "absl/strings/str_cat.h"
#include "runtime/core/thread_pool.h"
#include "runtime/measure_limits.h"

namespace tunefarm::runtime {
namespace {

// Enough for any kernel worth timing; also keeps `number` from overflowing when a callable is
// faster than the clock's resolution.
constexpr int kMaxNumber = kMaxCallsPerRepeat;

double SteadySeconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

void SleepSeconds(double seconds) {
  std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
}

// Parses a sysfs cache size such as "32768K" or "32M".
size_t ParseCacheSize(const std::string& text) {
  size_t value = 0;
  size_t i = 0;
  for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i)
    value = value * 10 + (text[i] - '0');
  if (i < text.size() && text[i] == 'K') value <<= 10;
  if (i < text.size() && text[i] == 'M') value <<= 20;
  return value;
}

size_t LargestCacheBytes() {
  size_t largest = 0;
  for (int index = 0; index < 16; ++index) {
    std::ifstream file(absl::StrCat("/sys/devices/system/cpu/cpu0/cache/index", index, "/size"));
    std::string text;
    if (!(file >> text)) continue;
    largest = std::max(largest, ParseCacheSize(text));
  }
#ifdef _SC_LEVEL3_CACHE_SIZE
  long l3 = sysconf(_SC_LEVEL3_CACHE_SIZE);
  if (l3 > 0) largest = std::max(largest, static_cast<size_t>(l3));
#endif
  return largest;
}

// Writes the whole buffer so that the next call finds none of its own data in cache.
class CacheFlusher {
 public:
  explicit CacheFlusher(size_t bytes) : bytes_(bytes), buffer_(new char[bytes]) {}
  size_t bytes() const { return bytes_; }
  void Flush() {
    std::memset(buffer_.get(), ++round_, bytes_);
    // The buffer is never read: keep the compiler from dropping the stores.
    asm volatile("" : : "r"(buffer_.get()) : "memory");
  }

 private:
  size_t bytes_;
  std::unique_ptr<char[]> buffer_;
  unsigned char round_ = 0;
};

// This thread's flusher, kept between measurements. A persistent measure child times thousands
// of candidates; mapping and faulting in a fresh 64 MB buffer for each (freed back to the system
// after every candidate) took 40 % of a cold-timing child's time, more than the writes.
CacheFlusher& ThreadCacheFlusher(size_t bytes) {
  thread_local std::unique_ptr<CacheFlusher> flusher;
  if (flusher == nullptr || flusher->bytes() != bytes) {
    flusher = std::make_unique<CacheFlusher>(bytes);
  }
  return *flusher;
}

// The options may come from the wire (a session's TimeFunction): every number is checked, finite
// and within the documented ranges (runtime/measure_limits.h), before it is used.
absl::Status Validate(const TimeEvaluatorOptions& o) {
  for (const absl::Status& s : {CheckInRange("number", o.number, NumberRange{1, kMaxNumber}),
                                CheckInRange("repeat", o.repeat, kRepeatRange),
                                CheckInRange("warmup", o.warmup, NumberRange{0, kMaxRepeat}),
                                CheckInRange("min_repeat_ms", o.min_repeat_ms, kPauseRange),
                                CheckInRange("cooldown_ms", o.cooldown_ms, kPauseRange),
                                CheckInRange("warmup_ms", o.warmup_ms, kPauseRange)}) {
    if (!s.ok()) return absl::InvalidArgumentError(absl::StrCat("time evaluator: ", s.message()));
  }
  return absl::OkStatus();
}

// The next `number` after a repeat of `number` calls took `elapsed_ms`, short of `target_ms`:
// enough calls to reach the target at the rate seen, and at least twice as many.
int NextNumber(int number, double elapsed_ms, double target_ms) {
  double wanted = elapsed_ms > 0 ? std::ceil(number * (target_ms / elapsed_ms)) : number * 10.0;
  wanted = std::max(wanted, 2.0 * number);
  return static_cast<int>(std::min(wanted, static_cast<double>(kMaxNumber)));
}

}  // namespace

void EvictFromCaches(MemoryRegion region) {
  const auto* begin = static_cast<const char*>(region.data);
  const char* end = begin + region.bytes;
  // 64 bytes is the smallest line of the CPUs we target: a larger line is evicted more than once.
  constexpr size_t kLine = 64;
#if defined(__x86_64__)
  for (const char* p = begin; p < end; p += kLine) _mm_clflush(p);
  if (region.bytes > 0) _mm_clflush(end - 1);
  _mm_mfence();
#elif defined(__aarch64__)
  for (const char* p = begin; p < end; p += kLine)
    asm volatile("dc civac, %0" : : "r"(p) : "memory");
  if (region.bytes > 0) asm volatile("dc civac, %0" : : "r"(end - 1) : "memory");
  asm volatile("dsb ish" : : : "memory");
#else
  (void)end;
  (void)kLine;
  ThreadCacheFlusher(CacheFlushBytes()).Flush();
#endif
}

size_t CacheFlushBytes() {
  static const size_t bytes = [] {
    size_t largest = LargestCacheBytes();
    return largest > 0 ? 2 * largest : size_t{64} << 20;
  }();
  return bytes;
}

absl::StatusOr<std::vector<double>> TimeFunction(const std::function<absl::Status()>& fn,
                                                 const TimeEvaluatorOptions& options) {
  if (absl::Status valid = Validate(options); !valid.ok()) return valid;
  const std::function<double()> now = options.now_seconds ? options.now_seconds : SteadySeconds;
  const std::function<void(double)> sleep =
      options.sleep_for_seconds ? options.sleep_for_seconds : SleepSeconds;
  CacheFlusher* flusher = nullptr;
  if (options.flush_cache) {
    flusher =
        &ThreadCacheFlusher(options.flush_bytes > 0 ? options.flush_bytes : CacheFlushBytes());
  }

  for (int i = 0; i < options.warmup; ++i) {
    if (absl::Status s = fn(); !s.ok()) return s;
  }
  if (options.warmup_ms > 0) {
    const double end = now() + options.warmup_ms / 1000.0;
    while (now() < end) {
      if (absl::Status s = fn(); !s.ok()) return s;
    }
  }
  std::vector<double> samples;
  samples.reserve(options.repeat);
  int number = options.number;
  for (int r = 0; r < options.repeat; ++r) {
    if (r > 0 && options.cooldown_ms > 0) sleep(options.cooldown_ms / 1000.0);
    for (;;) {
      if (flusher) flusher->Flush();
      for (const MemoryRegion& region : options.evict) EvictFromCaches(region);
      // A flush takes milliseconds, long after the pool's workers stopped spinning: the timed
      // call would pay for waking them, which a kernel inside a model does not (its launch
      // follows the previous kernel's).
      if (flusher != nullptr || !options.evict.empty()) WakeWorkers();
      double start = now();
      for (int i = 0; i < number; ++i) {
        if (absl::Status s = fn(); !s.ok()) return s;
      }
      double elapsed_ms = (now() - start) * 1000.0;
      if (elapsed_ms >= options.min_repeat_ms || number >= kMaxNumber) {
        samples.push_back(elapsed_ms / 1000.0 / number);
        break;
      }
      number = NextNumber(number, elapsed_ms, options.min_repeat_ms);
    }
  }
  return samples;
}

TimingSummary Summarize(absl::Span<const double> seconds) {
  TimingSummary summary;
  if (seconds.empty()) return summary;
  std::vector<double> sorted(seconds.begin(), seconds.end());
  std::sort(sorted.begin(), sorted.end());
  auto percentile = [&](double p) {
    double position = p * static_cast<double>(sorted.size() - 1);
    size_t below = static_cast<size_t>(position);
    size_t above = std::min(below + 1, sorted.size() - 1);
    double weight = position - static_cast<double>(below);
    return sorted[below] * (1 - weight) + sorted[above] * weight;
  };
  summary.count = static_cast<int>(sorted.size());
  summary.min = sorted.front();
  summary.p20 = percentile(0.2);
  summary.median = percentile(0.5);
  summary.p80 = percentile(0.8);
  return summary;
}

}  // namespace tunefarm::runtime
