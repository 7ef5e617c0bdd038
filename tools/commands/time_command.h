// `tunefarm time LIB.so [--compare OTHER.so]`: re-times a built kernel or model module on this
// machine with the measurement protocol (runtime/measure/module_timing.h) and, with --compare,
// prints OTHER's speedup over LIB with its 95 % confidence interval.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>

namespace tunefarm::tools {

struct TimeCommandOptions {
  std::string library;
  std::string function;
  std::string compare;           // another build of the same computation
  std::string compare_function;  // empty: --function
  std::string bind;              // n=512,...
  int rounds = 10;
  double min_slot_ms = 50;
  int threads = 0;
  uint64_t seed = 1;
};

// 0 with a line per module (median, min, spread over the rounds) and, with --compare, the
// verdict line "speedup of OTHER over LIB: 1.23x faster [1.18x, 1.29x] (95 % CI, 10 rounds)" or
// "... no measurable gain: ..."; 2 with "tunefarm: ..." for a file that cannot be loaded or run,
// bad bindings, or two files that do not take the same arguments.
int RunTimeCommand(const TimeCommandOptions& options, std::ostream& out, std::ostream& err);

}  // namespace tunefarm::tools
