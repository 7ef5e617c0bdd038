// MeasureOptions: how a candidate is built, checked and timed. The one form of these options:
// the tuner's runners, a job's spec, a lease, a session's TimeFunction and the measure child all
// carry this struct (proto/mapping converts it to and from the API's message).
#pragma once

#include <cstdint>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace tunefarm::runtime::measure {

struct MeasureOptions {
  int number = 0;               // runs per repeat; 0: as many as reach min_repeat_ms (at least 1)
  int repeat = 3;               // timed repeats; each contributes one mean to repeat_seconds
  double min_repeat_ms = 20;    // with number == 0, the shortest a repeat may take
  double cooldown_ms = 0;       // pause between repeats
  bool flush_cache = false;     // evict the caches before each repeat
  double build_timeout_s = 20;  // per candidate
  double run_timeout_s = 10;    // per candidate on the device: load + check + time
  bool check_correctness = true;
  double rtol = 1e-3;  // |got - want| <= atol + rtol * |want|, elementwise
  double atol = 1e-4;
  // A candidate whose first run is this many times slower than the best so far is cut short
  // (timed once); 0 disables it.
  double slow_cutoff_ratio = 100;
  int threads = 0;    // the kernel's parallel width; 0: the runtime's default
  uint64_t seed = 1;  // generated inputs are a pure function of (signature, seed)

  bool operator==(const MeasureOptions&) const = default;
};

// Whether every timed call starts from flushed caches (flush_cache with one call per repeat): the
// timing of a layer inside a model. Records say which way they were timed (tuner::Record).
inline bool TimesColdCaches(const MeasureOptions& options) {
  return options.flush_cache &&
         (options.number == 1 || (options.number == 0 && options.min_repeat_ms == 0));
}

// InvalidArgument naming the first field (after `prefix`, e.g. "measure.run_timeout_s") that is
// not finite or outside its documented range (runtime/measure_limits.h): number 0..2^30, repeat
// 1..1000, min_repeat_ms and cooldown_ms 0..60000, build_timeout_s and run_timeout_s in
// (0, 86400], rtol and atol >= 0, slow_cutoff_ratio finite (0 or less: off), threads 0..1024.
// Every side checks options it did not make itself: the tracker a job's, the worker a lease's.
absl::Status ValidateMeasureOptions(const MeasureOptions& options,
                                    absl::string_view prefix = "measure.");

}  // namespace tunefarm::runtime::measure
