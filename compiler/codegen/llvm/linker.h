// Private: links relocatable objects into a shared library with LLVM's lld, in this process (lld
// as a library, one link at a time), or as the ld.lld child process (TUNEFARM_LLD_PROGRAM) once
// lld has said it cannot safely run again here; its diagnostics become the error message.
#pragma once

#include <string>
#include <vector>

#include "absl/status/status.h"

namespace tunefarm::codegen {

// Writes `output`. `log_path` receives a child linker's stdout and stderr (a scratch file).
absl::Status LinkSharedLibrary(const std::vector<std::string>& objects, const std::string& output,
                               const std::string& log_path);

// The same link, always as the ld.lld child process: the fallback above, and the reference the
// tests hold the in-process link to.
absl::Status LinkSharedLibraryInChildProcess(const std::vector<std::string>& objects,
                                             const std::string& output,
                                             const std::string& log_path);

}  // namespace tunefarm::codegen
