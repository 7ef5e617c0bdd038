// How a verified result is printed (tuner::VerifyBest, or the same re-timing on a farm device):
// the re-timed best against its record, the default, and the speedup with its 95 % CI, which
// says "no measurable gain" when the interval holds 1.0. `tune`, `tune --tracker` and the demo.
#pragma once

#include <ostream>
#include <string>

#include "tuner/measure/verified_best.h"

namespace tunefarm::tools {

// `where`: "here", or "on worker W"; every line starts with `indent`.
void PrintVerifiedBest(const tuner::VerifiedBest& v, const std::string& where,
                       const std::string& indent, std::ostream& out);

}  // namespace tunefarm::tools
