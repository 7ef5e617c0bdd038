// The environment knobs of `tunefarm` (README's table), checked once before a command runs: a
// value that would be silently ignored deeper down is refused here, naming the variable.
#pragma once

#include <string>

namespace tunefarm::tools::cli {

// "" when every knob that is set has a valid value, else the first problem in words:
// "TUNEFARM_LOG: unknown logger 'ir' (loggers: codegen, passes, worker)".
std::string CheckEnvironment();

}  // namespace tunefarm::tools::cli
