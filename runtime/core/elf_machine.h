// The architecture a shared library was built for, read from its ELF header, and the one a
// target triple names: so a library of the wrong architecture is refused before it is sent to a
// device or loaded, with both named (dlopen() says "No such file or directory" instead).
#pragma once

#include <string>
#include <string_view>

namespace tunefarm::runtime {

// "x86_64", "aarch64", "arm", "riscv64", "i386", "machine N" for another, or "" when `bytes` (the
// file's first bytes, at least 20) is not a little-endian ELF header.
std::string ElfMachine(std::string_view bytes);

// The same for a file; "" when it cannot be read or is not ELF.
std::string ElfMachineOfFile(const std::string& path);

// The architecture of a target triple's first part in ElfMachine's names ("aarch64" for
// aarch64/arm64, "x86_64" for x86_64/amd64, ...); "" for an empty triple.
std::string TripleMachine(std::string_view triple);

// What this binary runs as, in ElfMachine's names.
const char* HostMachine();

}  // namespace tunefarm::runtime
