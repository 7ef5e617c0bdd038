// The environment knobs of `tunefarm` (README's table), checked once before a command runs: a
// value that would be silently ignored deeper down is refused here, naming the variable.
#pragma once

#include <string>

#include "absl/strings/string_view.h"

namespace tunefarm::tools::cli {

// "" when every knob that is set has a valid value, else the first problem in words:
// "TUNEFARM_LOG: unknown logger 'ir' (loggers: codegen, passes, worker)".
std::string CheckEnvironment();
// TUNEFARM_LOG's value alone: "name=level" or "level" entries, comma-separated.
std::string CheckLogLevels(absl::string_view text);

}  // namespace tunefarm::tools::cli
