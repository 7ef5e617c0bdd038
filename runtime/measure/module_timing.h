// Re-timing built files on this machine with the measurement protocol: one module, or two
// interleaved round by round with the ratio's 95 % confidence interval, holding the host's
// timing lock throughout. What `tunefarm time LIB.so [--compare OTHER.so]` runs.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "runtime/measure/interleaved_timing.h"

namespace tunefarm::runtime::measure {

struct ModuleTimingRequest {
  std::string library;   // a kernel library or a model module
  std::string function;  // empty: the library's only kernel
  // Set: timed against `library` in alternating rounds, on the same seeded inputs.
  std::string compare_library;
  std::string compare_function;
  std::map<std::string, int64_t> bindings;
  uint64_t seed = 1;
  int threads = 0;  // the runtime pool's width; 0: its default
  InterleavedOptions interleaved;
  double max_lock_wait_s = 120;  // for the host timing lock
  std::string timing_lock_path;  // empty: HostTimingLock::DefaultPath()
};

struct TimedModuleSummary {
  std::string description;
  double median_seconds = 0;
  double min_seconds = 0;
  double spread = 0;  // (max - min) / min over the rounds
};

struct ModuleTimingReport {
  std::vector<TimedModuleSummary> modules;  // `library`, then `compare_library`
  std::vector<std::vector<double>> round_seconds;
  // compare_library's time over library's.
  std::optional<RatioInterval> compare_over_library;
  int rounds_redone = 0;     // timed again after the canary saw a slow phase
  int slow_rounds_kept = 0;  // slow-phase rounds kept when the extra rounds ran out
  bool timed_alone = false;  // the host's timing lock was held (or off) throughout
  std::string timing_note;   // why not, when it was not
};

// InvalidArgument for a file that cannot be loaded or run, or two files that do not take the
// same arguments; the first run's error otherwise.
absl::StatusOr<ModuleTimingReport> TimeModules(const ModuleTimingRequest& request);

}  // namespace tunefarm::runtime::measure
