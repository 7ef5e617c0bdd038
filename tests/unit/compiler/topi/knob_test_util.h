// Helpers of the knob tests: the CPUs the spaces are sized for, and a seeded sample of a space.
#pragma once

#include <gtest/gtest.h>
#include <random>
#include <vector>

#include "compiler/space/config_sampler.h"
#include "compiler/space/config_space.h"
#include "compiler/topi/cpu_info.h"

namespace tunefarm::topi::testing {

inline CpuInfo Avx512Cpu() {
  CpuInfo cpu = Avx2Cpu();
  cpu.vector_bits = 512;
  cpu.vector_registers = 32;
  return cpu;
}

inline CpuInfo NeonCpu() {
  CpuInfo cpu;
  cpu.vector_bits = 128;
  cpu.vector_registers = 32;
  cpu.cores = 4;
  return cpu;
}

inline CpuInfo SingleCoreAvx2() { return Avx2Cpu(1); }

inline std::vector<CpuInfo> KnobCpus() {
  return {Avx2Cpu(), Avx512Cpu(), NeonCpu(), SingleCoreAvx2()};
}

// `n` valid configs drawn with `seed` (a test failure when the space has none to draw).
inline std::vector<space::Config> Sample(const space::ConfigSpace& space, int n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<space::Config> configs;
  for (int i = 0; i < n; ++i) {
    absl::StatusOr<space::Config> c = space::SampleValidConfig(space, rng);
    EXPECT_TRUE(c.ok()) << c.status();
    if (!c.ok()) break;
    configs.push_back(*c);
  }
  return configs;
}

}  // namespace tunefarm::topi::testing
