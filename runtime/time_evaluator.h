// Times a callable the way the tuner measures kernels: a warm-up, then `repeat` timed repeats of
// `number` back-to-back calls each, with an optional pause and, before each repeat, a cache flush
// or the caches a layer finds inside a model (runtime/cpu_caches.h).
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "runtime/cpu_caches.h"

namespace tunefarm::runtime {

struct TimeEvaluatorOptions {
  int number = 1;            // calls per repeat; their mean is one sample
  int repeat = 1;            // samples returned
  double min_repeat_ms = 0;  // raise `number` until one repeat lasts at least this long
  double cooldown_ms = 0;    // sleep between repeats (lets a throttled CPU recover)
  bool flush_cache = false;  // write a buffer larger than the last-level cache before each repeat
  size_t flush_bytes = 0;    // that buffer's size; 0 means CacheFlushBytes()
  int warmup = 1;            // untimed calls first (page faults, lazy binding, cold caches)
  // Then untimed calls until this long has passed: an idle CPU takes tens of ms to reach its full
  // clock, and a sub-ms repeat (one call from flushed caches) would time the ramp.
  double warmup_ms = 0;
  // Recreated before each repeat: the layer's weights evicted, the caches filled again with other
  // memory, its input read back.
  std::optional<LayerCacheState> layer;

  // The clock and sleep the evaluator uses; replaceable so tests can count calls without waiting.
  std::function<double()> now_seconds;            // default: steady clock
  std::function<void(double)> sleep_for_seconds;  // default: this thread sleeps
};

// The steady clock in seconds (CLOCK_MONOTONIC: comparable between the processes of one host),
// the default of TimeEvaluatorOptions::now_seconds and of every other timer of the runtime.
double SteadySeconds();

// Calls `fn` as `options` say and returns, for each repeat, the mean seconds per call. The
// first error `fn` returns stops the measurement and is returned as is. With min_repeat_ms, a
// repeat that ends too soon is discarded and rerun with a larger `number` (which later repeats
// keep), so every sample averages the same number of calls. With flush_cache or layer only each
// repeat's first call starts cold; the calling thread keeps its flush buffer for later
// measurements.
absl::StatusOr<std::vector<double>> TimeFunction(const std::function<absl::Status()>& fn,
                                                 const TimeEvaluatorOptions& options);

// Order statistics of repeat samples; the tuner ranks by the median (timings are noisy).
// Percentiles interpolate linearly between the sorted samples. All zero for no samples.
struct TimingSummary {
  int count = 0;
  double min = 0;
  double p20 = 0;
  double median = 0;
  double p80 = 0;
};
TimingSummary Summarize(absl::Span<const double> seconds);

}  // namespace tunefarm::runtime
