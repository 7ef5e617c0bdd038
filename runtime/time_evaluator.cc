#include "runtime/time_evaluator.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <thread>

#include "absl/strings/str_cat.h"
#include "runtime/core/thread_pool.h"
#include "runtime/measure_limits.h"

namespace tunefarm::runtime {
namespace {

// Enough for any kernel worth timing; also keeps `number` from overflowing when a callable is
// faster than the clock's resolution.
constexpr int kMaxNumber = kMaxCallsPerRepeat;

void SleepSeconds(double seconds) {
  std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
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
  constexpr double kMaxRefillRatio = 64;
  if (o.layer.has_value() &&
      !(o.layer->refill_ratio >= 0 && o.layer->refill_ratio <= kMaxRefillRatio)) {
    return absl::InvalidArgumentError(
        absl::StrCat("time evaluator: layer.refill_ratio must be in [0, ", kMaxRefillRatio,
                     "], got ", o.layer->refill_ratio));
  }
  return absl::OkStatus();
}

// Calls in a loop run a few percent faster or slower than the short repeat that estimated their
// rate (a lone call is often the slower: its caches and predictors are cold), so a repeat sized to
// exactly the target fell short about half the time and was rerun at twice the size: a calibrated
// 100 ms repeat of a model in a session cost 250-300 ms. Aiming this far above absorbs that.
constexpr double kTargetMargin = 1.2;

// The next `number` after a repeat of `number` calls took `elapsed_ms`, short of `target_ms`:
// enough calls to pass the target with a margin at the rate seen, and at least a margin more than
// before, so that a run of near misses still ends within a few reruns.
int NextNumber(int number, double elapsed_ms, double target_ms) {
  double wanted =
      elapsed_ms > 0 ? std::ceil(number * kTargetMargin * (target_ms / elapsed_ms)) : number * 10.0;
  wanted = std::max(wanted, std::ceil(number * kTargetMargin));
  return static_cast<int>(std::min(wanted, static_cast<double>(kMaxNumber)));
}

}  // namespace

double SteadySeconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

absl::StatusOr<std::vector<double>> TimeFunction(const std::function<absl::Status()>& fn,
                                                 const TimeEvaluatorOptions& options) {
  if (absl::Status valid = Validate(options); !valid.ok()) return valid;
  const std::function<double()> now = options.now_seconds ? options.now_seconds : SteadySeconds;
  const std::function<void(double)> sleep =
      options.sleep_for_seconds ? options.sleep_for_seconds : SleepSeconds;
  const size_t flush_bytes =
      options.flush_cache ? (options.flush_bytes > 0 ? options.flush_bytes : CacheFlushBytes()) : 0;

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
      if (flush_bytes > 0) FlushCaches(flush_bytes);
      if (options.layer.has_value()) RecreateLayerCacheState(*options.layer);
      // A flush takes milliseconds, long after the pool's workers stopped spinning: the timed
      // call would pay for waking them, which a kernel inside a model does not (its launch
      // follows the previous kernel's).
      if (flush_bytes > 0 || options.layer.has_value()) WakeWorkers();
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
