// The check behind `tunefarm run`: a TE script's scheduled function and its unscheduled definition
// run on the same random inputs, every output compared, and the scheduled function optionally
// timed.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler/target/target.h"
#include "driver/bindings.h"
#include "driver/note_sink.h"

namespace tunefarm::driver {

struct ScriptCheckOptions {
  std::string file;  // the .te script
  Bindings bindings;
  std::optional<target::Target> target;  // nullopt: the reference interpreter
  uint64_t seed = 0;                     // of the random inputs
  double rtol = 1e-4;
  double atol = 1e-5;
  bool time = false;  // time the scheduled function when its outputs agree
  int threads = 0;    // > 0: the width of the kernel thread pool from now on (SetKernelThreads)
  // With a record database (and a compiled target), a script with cfg knobs runs at its best
  // recorded config on that target and device (tuned_schedule.h).
  std::string db;
  std::string device_key;  // empty: this machine's local key
  // Receives the lookup's "schedule: ..." line as soon as the script is loaded, so a caller can
  // show which schedule ran even when a later step fails.
  NoteSink on_schedule;
};

// The maximum absolute difference of one computed output from the reference's.
struct OutputError {
  std::string tensor;
  double max_abs_err = 0.0;
};

// The first element out of tolerance.
struct OutputMismatch {
  std::string tensor;
  std::string index;  // "[3, 4]" (FormatIndex)
  double got = 0.0;
  double expected = 0.0;

  // "B[3, 4] = 0.5, expected 1"
  std::string Describe() const;
};

struct ScriptTiming {
  std::string runner;  // the scheduled function's runner (KernelRunner::Describe)
  double median_seconds = 0.0;
  double gflops = 0.0;  // FLOPs counted from the definition
  int repeats = 0;
  int threads = 0;  // the thread pool's width during the measurement (0: a GPU kernel)
};

struct ScriptCheck {
  std::vector<OutputError> outputs;  // one per computed argument, in argument order
  double max_abs_err = 0.0;          // the largest of `outputs`
  std::optional<OutputMismatch> mismatch;
  // Set when the definition is too large for the interpreter and was compiled instead: where it
  // ran (KernelRunner::Describe).
  std::optional<std::string> compiled_reference;
  std::optional<ScriptTiming> timing;  // with `time`, when the outputs agree

  bool ok() const { return !mismatch.has_value(); }
};

// Loads and lowers the script, runs both functions, compares, and times when asked. A mismatch is
// a result, not an error; errors are the script's own (with their "FILE:LINE:COL:"), bindings
// that do not fit it, a target that cannot run here, and failures to run either function.
absl::StatusOr<ScriptCheck> CheckScript(const ScriptCheckOptions& options);

}  // namespace tunefarm::driver
