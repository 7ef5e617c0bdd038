// Where a helper program we spawn (the measure child, the session child) is: the first of an
// explicit path, an environment variable, the file beside this process's executable, and the
// path the build wrote it to.
#pragma once

#include <string>

#include "absl/status/statusor.h"

namespace tunefarm::runtime::measure {

struct HelperProgram {
  const char* name;        // the file name, e.g. "tunefarm-measure"
  const char* env;         // the environment variable that may name it
  std::string built_path;  // where this build wrote it; empty when unknown
};

// An explicit path or the environment variable must name an executable file (NotFound naming it
// otherwise); the other two places are tried in order. NotFound lists every place tried.
absl::StatusOr<std::string> FindHelperProgram(const HelperProgram& helper,
                                              const std::string& explicit_path);

}  // namespace tunefarm::runtime::measure
