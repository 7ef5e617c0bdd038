// The measurement interface: a Builder compiles candidates into loadable libraries and a Runner
// loads, checks and times them on a device. The tuning loop sees only these two interfaces, so a
// runner on another machine (the farm's remote runner) fits without changes to the tuner.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "compiler/space/config.h"
#include "tuner/record.h"
#include "tuner/task.h"

namespace tunefarm::tuner {

struct MeasureOptions {
  int number = 0;               // runs per repeat; 0: as many as reach min_repeat_ms (at least 1)
  int repeat = 3;               // repeats; each contributes one mean to repeat_seconds
  int min_repeat_ms = 20;       // with number == 0, the shortest a repeat may take
  int cooldown_ms = 0;          // pause between repeats
  bool flush_cache = false;     // evict the caches between repeats
  double build_timeout_s = 20;  // per candidate
  double run_timeout_s = 10;    // per candidate: load + check + time
  bool check_correctness = true;
  double rtol = 1e-3;  // |got - want| <= atol + rtol * |want|, elementwise
  double atol = 1e-4;
  // A candidate whose first run is this many times slower than the best so far is cut short
  // (timed once); 0 disables it.
  double slow_cutoff_ratio = 100;
  int threads = 0;  // the kernel's parallel width; 0: the runtime's default
};

// InvalidArgument naming the first field (after `prefix`, e.g. "measure.run_timeout_s") that is
// not finite or outside its documented range (runtime/measure_limits.h): number 0..2^30, repeat
// 1..1000, min_repeat_ms and cooldown_ms 0..60000, build_timeout_s and run_timeout_s in
// (0, 86400], rtol and atol >= 0, slow_cutoff_ratio finite (0 or less: off), threads 0..1024. The
// tracker checks every job's options with it, and the local runner its own.
absl::Status ValidateMeasureOptions(const MeasureOptions& options,
                                    absl::string_view prefix = "measure.");

struct MeasureInput {
  const Task* task = nullptr;
  space::Config config;
};

struct BuildResult {
  ErrorKind error_kind = ErrorKind::kOk;  // ok, build_error, build_timeout or invalid_config
  std::string error_message;
  std::string library_path;  // shared library holding the candidate's kernel
  std::string function_name;
  // A library of the naive reference schedule over the same arguments (TaskTemplate::Reference),
  // shared by candidates with equal reference keys; empty when correctness is not checked.
  std::string reference_library_path;
  std::string reference_key;
  double build_seconds = 0;
};

struct MeasureResult {
  ErrorKind error_kind = ErrorKind::kOk;
  std::string error_message;
  std::vector<double> repeat_seconds;  // every repeat's mean, in seconds
  double build_seconds = 0;
  std::string measured_by;  // "local" or the worker's key
  // Not a measurement: the run was stopped (a cancelled job) before a result came. The tuning
  // loop neither records it nor learns from it.
  bool cancelled = false;
  // The runner has already stored this result's record (the farm's remote runner stores each
  // result the moment it arrives), so the tuning loop must not store it again.
  bool recorded = false;
};

class Builder {
 public:
  virtual ~Builder() = default;
  // One result per input, in order. Failures are results, never errors.
  virtual std::vector<BuildResult> Build(const std::vector<MeasureInput>& inputs) = 0;
};

class Runner {
 public:
  virtual ~Runner() = default;
  // One result per input, in order; builds that failed pass their error through unmeasured.
  // `best_seconds` is the best median so far (0: none yet), for the slow-candidate cutoff.
  virtual std::vector<MeasureResult> Run(const std::vector<MeasureInput>& inputs,
                                         const std::vector<BuildResult>& builds,
                                         double best_seconds) = 0;
  // The device key results are filed under ("local-<cpu>" for the local runner).
  virtual std::string device_key() const = 0;
};

}  // namespace tunefarm::tuner
