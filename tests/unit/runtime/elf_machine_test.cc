// The architecture of a library from its ELF header and of a target triple, in one vocabulary, so
// the farm can refuse a library a device cannot load before sending it.
#include "runtime/core/elf_machine.h"

#include <elf.h>
#include <gtest/gtest.h>
#include <string>

namespace tunefarm::runtime {
namespace {

// The first bytes of a little-endian ELF file for `machine`.
std::string Header(unsigned machine) {
  std::string h(EI_NIDENT + 4, '\0');
  h.replace(0, SELFMAG, ELFMAG);
  h[EI_CLASS] = ELFCLASS64;
  h[EI_DATA] = ELFDATA2LSB;
  h[EI_NIDENT + 2] = static_cast<char>(machine & 0xff);
  h[EI_NIDENT + 3] = static_cast<char>(machine >> 8);
  return h;
}

TEST(ElfMachineTest, NamesTheArchitecturesOfHeaders) {
  EXPECT_EQ(ElfMachine(Header(EM_X86_64)), "x86_64");
  EXPECT_EQ(ElfMachine(Header(EM_AARCH64)), "aarch64");
  EXPECT_EQ(ElfMachine(Header(EM_ARM)), "arm");
  EXPECT_EQ(ElfMachine(Header(EM_RISCV)), "riscv64");
  EXPECT_EQ(ElfMachine(Header(EM_PPC64)), "machine 21");
}

TEST(ElfMachineTest, WhatIsNotALittleEndianElfHeaderHasNone) {
  EXPECT_EQ(ElfMachine(""), "");
  EXPECT_EQ(ElfMachine("not an ELF file at all, but long enough"), "");
  EXPECT_EQ(ElfMachine(Header(EM_X86_64).substr(0, EI_NIDENT + 3)), "") << "truncated";
  std::string big_endian = Header(EM_AARCH64);
  big_endian[EI_DATA] = ELFDATA2MSB;
  EXPECT_EQ(ElfMachine(big_endian), "");
  EXPECT_EQ(ElfMachineOfFile("/no/such/file.so"), "");
}

TEST(ElfMachineTest, ThisProgramIsOfTheHostsArchitecture) {
  EXPECT_EQ(ElfMachineOfFile("/proc/self/exe"), HostMachine());
}

TEST(ElfMachineTest, TriplesUseTheSameNames) {
  EXPECT_EQ(TripleMachine("aarch64-linux-gnu"), "aarch64");
  EXPECT_EQ(TripleMachine("aarch64-unknown-linux-gnu"), "aarch64");
  EXPECT_EQ(TripleMachine("arm64-apple-darwin"), "aarch64");
  EXPECT_EQ(TripleMachine("x86_64-linux-gnu"), "x86_64");
  EXPECT_EQ(TripleMachine("armv7a-linux-gnueabihf"), "arm");
  EXPECT_EQ(TripleMachine("i686-pc-linux-gnu"), "i386");
  EXPECT_EQ(TripleMachine("riscv64-linux-gnu"), "riscv64");
  EXPECT_EQ(TripleMachine(""), "");
}

}  // namespace
}  // namespace tunefarm::runtime
