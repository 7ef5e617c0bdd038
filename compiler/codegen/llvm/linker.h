// Private: links relocatable objects into a shared library with ld.lld (TUNEFARM_LLD_PROGRAM),
// run as a child process; its diagnostics become the error message.
#pragma once

#include <string>
#include <vector>

#include "absl/status/status.h"

namespace tunefarm::codegen {

// Writes `output`. `log_path` receives the linker's stdout and stderr (a scratch file).
absl::Status LinkSharedLibrary(const std::vector<std::string>& objects, const std::string& output,
                               const std::string& log_path);

}  // namespace tunefarm::codegen
