// MeasureOptions: how a candidate is built, checked and timed. The one form of these options:
// the tuner's runners, a job's spec, a lease, a session's TimeFunction and the measure child all
// carry this struct (proto/mapping converts it to and from the API's message).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string_view>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace tunefarm::runtime::measure {

// What is evicted from the CPU caches before each timed repeat. Records store these numbers.
enum class CacheFlush {
  kNone = 0,  // nothing: a call finds what the call before left (a kernel timed in a loop)
  kAll = 1,   // every cache: the kernel's input, weights and output all come from memory
  // The caches as a layer inside a model finds them (runtime/measure/layer_cache_state.h): its
  // weights, every tensor argument but the first (the input) and the last (the output), come
  // from memory into caches full of other data, while its input is what the layer before wrote.
  kWeights = 2,
};
// "none", "all", "weights"; Parse returns nullopt for any other text.
std::string_view CacheFlushName(CacheFlush flush);
std::optional<CacheFlush> ParseCacheFlush(std::string_view name);

struct MeasureOptions {
  int number = 0;             // runs per repeat; 0: as many as reach min_repeat_ms (at least 1)
  int repeat = 3;             // timed repeats; each contributes one mean to repeat_seconds
  double min_repeat_ms = 20;  // with number == 0, the shortest a repeat may take
  double cooldown_ms = 0;     // pause between repeats
  CacheFlush cache_flush = CacheFlush::kNone;  // evicted before each repeat
  // Untimed calls for this long before the repeats: a CPU that sat idle (the device waiting for
  // the next candidate) runs at a low clock for tens of ms, which a sub-ms timing would see.
  double warmup_ms = 0;
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

// How every timed call starts: `cache_flush` when each repeat is one call, else kNone (only a
// repeat's first call would find the caches flushed). Records say how they were timed
// (tuner::Record).
inline CacheFlush TimedFlush(const MeasureOptions& options) {
  const bool one_call = options.number == 1 || (options.number == 0 && options.min_repeat_ms == 0);
  return one_call ? options.cache_flush : CacheFlush::kNone;
}

// How long the device may take over one candidate: run_timeout_s (loading, the correctness
// check and the kernel's own slowness) plus what the timing itself asks for, taken three times
// (a noisy timing is retried, runtime/measure/stable_timing.h) and doubled (sizing `number`, the
// canaries around it). A timing of many long repeats is then not a timeout by construction.
double CandidateDeadlineSeconds(const MeasureOptions& options);

// The options as a device `slowness` times slower than the tracker gets them: run_timeout_s that
// many times longer (at most 86400 s); the timing itself is in wall time and stays as it is.
MeasureOptions ForSlowerDevice(MeasureOptions options, double slowness);

// The user's names for how a candidate is timed (`--timing`): hot (kNone: back-to-back calls, as
// a kernel runs in a loop), weights (kWeights: as a layer inside a model), cold (kAll).
const std::map<std::string, CacheFlush>& TimingChoices();
std::string_view TimingName(CacheFlush flush);
// Sets `options` up to time that way: hot keeps number and min_repeat_ms; the others make each
// repeat one call (so every call starts as `flush` leaves the caches), after 50 ms of untimed
// calls.
void ApplyTiming(CacheFlush flush, MeasureOptions& options);

// InvalidArgument naming the first field (after `prefix`, e.g. "measure.run_timeout_s") that is
// not finite or outside its documented range (runtime/measure_limits.h): number 0..2^30, repeat
// 1..1000, min_repeat_ms, cooldown_ms and warmup_ms 0..60000, build_timeout_s and run_timeout_s in
// (0, 86400], rtol and atol >= 0, slow_cutoff_ratio finite (0 or less: off), threads 0..1024.
// Every side checks options it did not make itself: the tracker a job's, the worker a lease's.
absl::Status ValidateMeasureOptions(const MeasureOptions& options,
                                    absl::string_view prefix = "measure.");

}  // namespace tunefarm::runtime::measure
