#include "tuner/measure.h"

#include <cmath>
#include <string>

#include "absl/strings/str_cat.h"
#include "runtime/core/thread_pool.h"
#include "runtime/measure_limits.h"

namespace tunefarm::tuner {

absl::Status ValidateMeasureOptions(const MeasureOptions& m, absl::string_view prefix) {
  namespace rt = runtime;
  auto name = [&](const char* field) { return absl::StrCat(prefix, field); };
  for (const absl::Status& s : {
           rt::CheckInRange(name("number"), m.number, rt::NumberRange{0, rt::kMaxCallsPerRepeat}),
           rt::CheckInRange(name("repeat"), m.repeat, rt::kRepeatRange),
           rt::CheckInRange(name("min_repeat_ms"), m.min_repeat_ms, rt::kPauseRange),
           rt::CheckInRange(name("cooldown_ms"), m.cooldown_ms, rt::kPauseRange),
           rt::CheckInRange(name("build_timeout_s"), m.build_timeout_s, rt::kTimeoutRange),
           rt::CheckInRange(name("run_timeout_s"), m.run_timeout_s, rt::kTimeoutRange),
           rt::CheckInRange(name("rtol"), m.rtol, rt::kNonNegativeRange),
           rt::CheckInRange(name("atol"), m.atol, rt::kNonNegativeRange),
           rt::CheckInRange(name("threads"), m.threads, rt::NumberRange{0, rt::kMaxThreads}),
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

}  // namespace tunefarm::tuner
