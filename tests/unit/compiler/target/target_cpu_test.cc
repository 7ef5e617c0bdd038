// CpuInfoOf: the host's detected CPU, a cross target's SIMD from its -mcpu and -mattr, and a GPU
// target's host.
#include "compiler/target/target_cpu.h"

#include <gtest/gtest.h>
#include <string>
#include <vector>

namespace tunefarm::target {
namespace {

topi::CpuInfo CpuOf(const std::string& text) {
  absl::StatusOr<Target> t = ParseTarget(text);
  EXPECT_TRUE(t.ok()) << text << ": " << t.status();
  return t.ok() ? CpuInfoOf(*t) : topi::CpuInfo();
}

TEST(TargetCpuTest, HostIsDetected) {
  topi::CpuInfo cpu = CpuOf("llvm");
  EXPECT_GE(cpu.cores, 1);
  EXPECT_GE(cpu.vector_bits, 128);
}

TEST(TargetCpuTest, CrossTargetsTakeTheirSimdFromCpuAndFeatures) {
  struct Case {
    std::string target;
    int bits, registers;
  };
  for (const Case& c : std::vector<Case>{
           {"llvm -mtriple=aarch64-linux-gnu", 128, 32},
           {"llvm -mtriple=aarch64-linux-gnu -mcpu=cortex-a72", 128, 32},
           {"llvm -mtriple=x86_64-linux-gnu -mcpu=skylake-avx512", 512, 32},
           {"llvm -mtriple=x86_64-linux-gnu -mcpu=haswell", 256, 16},
           {"llvm -mtriple=x86_64-linux-gnu -mcpu=skylake-avx512 -mattr=-avx512f", 256, 16},
           {"llvm -mtriple=x86_64-linux-gnu -mcpu=x86-64 -mattr=+avx2,+fma", 256, 16},
           {"llvm -mtriple=x86_64-linux-gnu -mcpu=x86-64", 128, 16}}) {
    topi::CpuInfo cpu = CpuOf(c.target);
    EXPECT_EQ(cpu.vector_bits, c.bits) << c.target;
    EXPECT_EQ(cpu.vector_registers, c.registers) << c.target;
  }
}

TEST(TargetCpuTest, AnExplicitCpuNarrowsTheHostsSimd) {
  // Runs on any x86 host that has AVX2: haswell code has 8 float lanes whatever the host has.
  if (CpuOf("llvm").vector_bits < 256) GTEST_SKIP() << "host without AVX2";
  topi::CpuInfo cpu = CpuOf("llvm -mcpu=haswell");
  EXPECT_EQ(cpu.vector_bits, 256);
  EXPECT_EQ(cpu.vector_registers, 16);
}

TEST(TargetCpuTest, CudaKernelsAreLaunchedFromTheHost) {
  EXPECT_EQ(CpuOf("cuda").model, CpuOf("llvm").model);
  EXPECT_EQ(CpuOf("cuda -arch=sm_80").vector_bits, CpuOf("llvm").vector_bits);
}

}  // namespace
}  // namespace tunefarm::target
