// What a command run in a test returned and printed.
#pragma once

#include <string>

namespace tunefarm::tools {

struct CommandOutcome {
  int code;
  std::string out, err;
};

}  // namespace tunefarm::tools
