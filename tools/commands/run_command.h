// `tunefarm run FILE.te --bind n=67`: runs a TE script's scheduled function and its unscheduled
// definition on the same random inputs and compares every output.
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
};

// Prints "max_abs_err=<x>" and "ok" on `out` and returns 0 when the outputs agree; prints
// "mismatch ..." with the first differing element and returns 1 when they do not. Other failures
// print one "tunefarm: <message>" line on `err` and return 1, or 2 for a bad command line (an
// unknown target, a malformed --bind).
int RunRunCommand(const RunOptions& options, std::ostream& out, std::ostream& err);

}  // namespace tunefarm::tools
