#include "runtime/measure/measure_options.h"

#include <algorithm>
#include <cmath>

#include "absl/strings/str_cat.h"
#include "runtime/core/thread_pool.h"
#include "runtime/measure/stable_timing.h"
#include "runtime/measure_limits.h"

namespace tunefarm::runtime::measure {

std::string_view CacheFlushName(CacheFlush flush) {
  switch (flush) {
    case CacheFlush::kNone:
      return "none";
    case CacheFlush::kAll:
      return "all";
    case CacheFlush::kWeights:
      return "weights";
  }
  return "none";
}

std::optional<CacheFlush> ParseCacheFlush(std::string_view name) {
  for (CacheFlush flush : {CacheFlush::kNone, CacheFlush::kAll, CacheFlush::kWeights}) {
    if (name == CacheFlushName(flush)) return flush;
  }
  return std::nullopt;
}

double CandidateDeadlineSeconds(const MeasureOptions& options) {
  const double timing_ms =
      options.warmup_ms + options.repeat * (options.min_repeat_ms + options.cooldown_ms);
  return options.run_timeout_s + 2 * StableTimingPolicy{}.max_attempts * timing_ms / 1000;
}

MeasureOptions ForSlowerDevice(MeasureOptions options, double slowness) {
  if (std::isfinite(slowness) && slowness > 1) {
    options.run_timeout_s = std::min(options.run_timeout_s * slowness, 86400.0);
  }
  return options;
}

absl::Status ValidateMeasureOptions(const MeasureOptions& m, absl::string_view prefix) {
  auto name = [&](const char* field) { return absl::StrCat(prefix, field); };
  for (const absl::Status& s : {
           CheckInRange(name("number"), m.number, NumberRange{0, kMaxCallsPerRepeat}),
           CheckInRange(name("repeat"), m.repeat, kRepeatRange),
           CheckInRange(name("min_repeat_ms"), m.min_repeat_ms, kPauseRange),
           CheckInRange(name("cooldown_ms"), m.cooldown_ms, kPauseRange),
           CheckInRange(name("warmup_ms"), m.warmup_ms, kPauseRange),
           CheckInRange(name("build_timeout_s"), m.build_timeout_s, kTimeoutRange),
           CheckInRange(name("run_timeout_s"), m.run_timeout_s, kTimeoutRange),
           CheckInRange(name("rtol"), m.rtol, kNonNegativeRange),
           CheckInRange(name("atol"), m.atol, kNonNegativeRange),
           CheckInRange(name("threads"), m.threads, NumberRange{0, kMaxThreads}),
       }) {
    if (!s.ok()) return s;
  }
  if (!std::isfinite(m.slow_cutoff_ratio)) {
    return absl::InvalidArgumentError(
        absl::StrCat(name("slow_cutoff_ratio"), " must be a finite number (0 or less: off), got ",
                     m.slow_cutoff_ratio));
  }
  return absl::OkStatus();
}

const std::map<std::string, CacheFlush>& TimingChoices() {
  static const auto* choices = new std::map<std::string, CacheFlush>{
      {"hot", CacheFlush::kNone}, {"cold", CacheFlush::kAll}, {"weights", CacheFlush::kWeights}};
  return *choices;
}

std::string_view TimingName(CacheFlush flush) {
  for (const auto& [name, value] : TimingChoices()) {
    if (value == flush) return name;
  }
  return "hot";
}

void ApplyTiming(CacheFlush flush, MeasureOptions& options) {
  options.cache_flush = flush;
  if (flush == CacheFlush::kNone) return;
  options.number = 1;
  options.min_repeat_ms = 0;  // else the evaluator raises `number` and later calls run hot again
  // A candidate's timed calls take well under a millisecond, right after the device sat idle
  // while the next candidate compiled: on a 2-core EPYC VM its clock took tens of ms to come
  // back, and 2-thread kernels timed cold ran up to 4x slower than in a model, so
  // single-threaded configs won. 50 ms of untimed calls first removed that.
  options.warmup_ms = 50;
}

}  // namespace tunefarm::runtime::measure
