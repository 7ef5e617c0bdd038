#include "runtime/measure/measure_options.h"

#include <cmath>

#include "absl/strings/str_cat.h"
#include "runtime/core/thread_pool.h"
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

}  // namespace tunefarm::runtime::measure
