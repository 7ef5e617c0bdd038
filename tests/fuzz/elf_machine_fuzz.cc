// The architecture read from an uploaded library's first bytes (runtime/core/elf_machine.h), over
// any bytes a client or a builder can send: it reads only what it was given, names a machine only
// for a little-endian ELF header, and the same header with any tail names the same one.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "runtime/core/elf_machine.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  const std::string machine = tunefarm::runtime::ElfMachine(bytes);
  const bool elf = size >= 20 &&
                   bytes.substr(0, 4) ==
                       "\x7f"
                       "ELF" &&
                   bytes[5] == 1;
  if (machine.empty() == elf) std::abort();
  if (!machine.empty() && tunefarm::runtime::ElfMachine(bytes.substr(0, 20)) != machine) {
    std::abort();
  }
  return 0;
}
