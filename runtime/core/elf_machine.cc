#include "runtime/core/elf_machine.h"

#include <cstdio>
#include <cstring>
#include <elf.h>

namespace tunefarm::runtime {

std::string ElfMachine(std::string_view bytes) {
  if (bytes.size() < EI_NIDENT + 4 || std::memcmp(bytes.data(), ELFMAG, SELFMAG) != 0 ||
      static_cast<unsigned char>(bytes[EI_DATA]) != ELFDATA2LSB) {
    return "";
  }
  // e_machine follows e_ident and e_type.
  const unsigned machine = static_cast<unsigned char>(bytes[EI_NIDENT + 2]) |
                           (static_cast<unsigned char>(bytes[EI_NIDENT + 3]) << 8);
  switch (machine) {
    case EM_X86_64:
      return "x86_64";
    case EM_AARCH64:
      return "aarch64";
    case EM_ARM:
      return "arm";
    case EM_RISCV:
      return "riscv64";
    case EM_386:
      return "i386";
    default:
      return "machine " + std::to_string(machine);
  }
}

std::string ElfMachineOfFile(const std::string& path) {
  char header[EI_NIDENT + 4] = {};
  FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) return "";
  const size_t n = std::fread(header, 1, sizeof(header), f);
  std::fclose(f);
  return ElfMachine(std::string_view(header, n));
}

std::string TripleMachine(std::string_view triple) {
  const std::string_view arch = triple.substr(0, triple.find('-'));
  if (arch == "arm64" || arch == "aarch64") return "aarch64";
  if (arch == "amd64" || arch == "x86_64") return "x86_64";
  if (arch.substr(0, 3) == "arm" || arch.substr(0, 5) == "thumb") return "arm";
  if (arch == "i386" || arch == "i486" || arch == "i586" || arch == "i686") return "i386";
  return std::string(arch);
}

const char* HostMachine() {
#if defined(__x86_64__)
  return "x86_64";
#elif defined(__aarch64__)
  return "aarch64";
#elif defined(__riscv)
  return "riscv64";
#else
  return "unknown";
#endif
}

}  // namespace tunefarm::runtime
