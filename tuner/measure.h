// The measurement interface: a Builder compiles candidates into loadable libraries and a Runner
// loads, checks and times them on a device. The local tuning loop sees only these two interfaces;
// the farm measures the same way on its workers (tracker/job_pipeline.h, one request and result
// per candidate: tracker/measure_work.h).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "compiler/space/config.h"
#include "runtime/measure/measure_options.h"
#include "tuner/record.h"
#include "tuner/task.h"

namespace tunefarm::tuner {

// The one form of the measure options, shared with the tracker, the worker and the child.
using runtime::measure::MeasureOptions;
using runtime::measure::ValidateMeasureOptions;

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
  // The canary around the repeats over its best (1: the machine at its fastest), and whether
  // they stayed too spread or in a slow phase after being timed again (runtime/measure).
  double canary_ratio = 1;
  bool noisy = false;
  bool emulated = false;  // measured under an emulator (tuner::Record)
  double build_seconds = 0;
  std::string measured_by;  // "local" or the worker's key
  std::string built_by;     // "local", "tracker" or the key of the worker that compiled it
  // Not a measurement: the run was stopped (a cancelled job) before a result came. The tuning
  // loop neither records it nor learns from it.
  bool cancelled = false;
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
