// Where the measure child program (tunefarm-measure) is: the first of an explicit path, the
// TUNEFARM_MEASURE_PROGRAM environment variable, the file beside this process's executable, and
// the path the build wrote it to.
#pragma once

#include <string>

#include "absl/status/statusor.h"

namespace tunefarm::runtime::measure {

inline constexpr const char kMeasureProgramName[] = "tunefarm-measure";
inline constexpr const char kMeasureProgramEnv[] = "TUNEFARM_MEASURE_PROGRAM";

// An explicit path or the environment variable must name an executable file (NotFound naming it
// otherwise); the other two places are tried in order. NotFound lists every place tried.
absl::StatusOr<std::string> FindMeasureProgram(const std::string& explicit_path = "");

}  // namespace tunefarm::runtime::measure
