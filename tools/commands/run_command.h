// `tunefarm run FILE.te --bind n=67 [--target llvm] [--time] [--threads N]`: runs a TE script's
// scheduled function and its unscheduled definition on the same random inputs, compares every
// output, and optionally times the scheduled function (driver/script_check.h does the work; this
// maps the flags and prints).
#pragma once

#include <cstdint>
#include <ostream>
#include <string>

namespace tunefarm::tools {

struct RunOptions {
  std::string file;
  std::string bind;  // "n=67,m=45"
  std::string target = "interp";
  uint64_t seed = 0;
  double rtol = 1e-4;
  double atol = 1e-5;
  bool time = false;  // time the scheduled function with the runtime's time evaluator
  int threads = 0;    // parallel width for llvm targets; 0 keeps TUNEFARM_NUM_THREADS or all cores
  // With a record database, a script with cfg knobs runs at its best recorded config on this
  // target and device (driver/tuned_schedule.h); "schedule: ..." says which was used.
  std::string db;
  std::string device_key;  // empty: this machine's local key
};

// The reference is the unscheduled definition on the interpreter, or, for definitions too large to
// interpret quickly, compiled for the same target; "reference=<where>" says which.
// Prints "max_abs_err=<x>" and "ok" on `out` and returns 0 when the outputs agree (with --time,
// then "median_ms=<ms> gflops=<n>" as the last line, FLOPs counted from the definition); prints
// "mismatch ..." with the first differing element and returns 1 when they do not. Other failures
// print one "tunefarm: <message>" line on `err` and return 1, or 2 for a bad command line (an
// unknown target, a malformed --bind).
int RunRunCommand(const RunOptions& options, std::ostream& out, std::ostream& err);

}  // namespace tunefarm::tools
