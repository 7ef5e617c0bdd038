// The documented ranges of the numbers that say how to measure (docs/farm.md, "Security and
// limits"): a job's measure options, a lease's, a session's TimeFunction options and its
// OpenSession timeouts. Every side checks a number from the wire against these (finite and in
// range) before it uses it: a timeout of inf or 1e300 overflows every deadline computed from
// it, and a pause of 1e300 ms rounds to garbage. One place for the numbers, so the tracker, the
// worker and the tuner agree.
#pragma once

#include <limits>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace tunefarm::runtime {

// A closed range [lo, hi], or (lo, hi] when `lo_open`; hi = infinity means no upper bound.
// `unit` ("s", "ms") only decorates messages.
struct NumberRange {
  double lo = 0;
  double hi = std::numeric_limits<double>::infinity();
  bool lo_open = false;
  const char* unit = "";
};

// OK when `value` is finite and within `range`; otherwise InvalidArgument naming the field, the
// range and the value: "measure.run_timeout_s must be a finite number in (0, 86400] s, got inf".
absl::Status CheckInRange(absl::string_view field, double value, const NumberRange& range);

// Timeouts (a candidate's build and run, one attempt): above 0, at most a day.
inline constexpr double kMaxTimeoutSeconds = 24 * 60 * 60;
inline constexpr NumberRange kTimeoutRange{0, kMaxTimeoutSeconds, /*lo_open=*/true, "s"};
// Waits where 0 means "the default" (a session's wait for a worker and its idle timeout).
inline constexpr NumberRange kWaitRange{0, kMaxTimeoutSeconds, false, "s"};
// min_repeat_ms and cooldown_ms: at most a minute each.
inline constexpr double kMaxPauseMs = 60 * 1000;
inline constexpr NumberRange kPauseRange{0, kMaxPauseMs, false, "ms"};
// Timed repeats of one measurement (each is one sample kept in memory).
inline constexpr int kMaxRepeat = 1000;
inline constexpr NumberRange kRepeatRange{1, kMaxRepeat};
// Calls per repeat (`number`); also where the time evaluator stops raising it.
inline constexpr int kMaxCallsPerRepeat = 1 << 30;
// Tolerances and ratios: finite and not negative.
inline constexpr NumberRange kNonNegativeRange{};

}  // namespace tunefarm::runtime
