// What tests of deployed programs share: finding a tool (qemu, a cross compiler) on PATH, running
// an AArch64 binary under qemu, and the top-5 classes deploy/run_model prints.
#pragma once

#include <string>
#include <vector>

namespace tunefarm::fixtures {

// The executable `name` in a PATH directory, or "" when there is none.
std::string FindOnPath(const std::string& name);

// What runs an AArch64 binary here: "qemu-aarch64 -L SYSROOT -E LD_LIBRARY_PATH=SYSROOT/lib"
// (append the binary and its arguments), or "" with `missing` saying why it cannot (no qemu, no
// cross libc). The cross toolchain's loader and libc go together: with Debian's arm64 multiarch
// libc also installed (the slim worker's packages), `-L` alone pairs that loader with the other
// libc, and the first thread a program starts spins forever.
std::string QemuAarch64Command(std::string* missing);

// The class indices run_model printed under "top-5 of 'OUTPUT':", in order (fewer when it printed
// fewer).
std::vector<int> PrintedTop5(const std::string& run_model_output, const std::string& output);

}  // namespace tunefarm::fixtures
