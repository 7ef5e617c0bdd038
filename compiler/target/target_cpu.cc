// CpuInfoOf: the host is measured; a target's SIMD width comes from its -mattr and -mcpu
// (for a cross target there is no machine to ask: cores and caches stay at CpuInfo's defaults).
#include "compiler/target/target_cpu.h"

#include <map>
#include <string>
#include <string_view>

#include "absl/strings/str_split.h"

namespace tunefarm::target {
namespace {

bool CpuHasAvx512(std::string_view cpu) {
  for (std::string_view c : {"znver4", "znver5", "skylake-avx512", "cascadelake", "cooperlake",
                             "icelake-server", "icelake-client", "sapphirerapids", "tigerlake",
                             "graniterapids", "emeraldrapids", "x86-64-v4"}) {
    if (cpu == c) return true;
  }
  return false;
}

bool CpuHasAvx2(std::string_view cpu) {
  for (std::string_view c : {"haswell", "broadwell", "skylake", "znver1", "znver2", "znver3",
                             "alderlake", "raptorlake", "x86-64-v3"}) {
    if (cpu == c) return true;
  }
  return CpuHasAvx512(cpu);
}

// The -mattr features that are switched on or off, the last mention winning. Exact names, so
// "+avx512fp16" says nothing about avx512f.
std::map<std::string, bool> ParseFeatures(const std::string& features) {
  std::map<std::string, bool> on;
  for (absl::string_view f : absl::StrSplit(features, ',', absl::SkipEmpty())) {
    if (f.size() < 2 || (f[0] != '+' && f[0] != '-')) continue;
    on[std::string(f.substr(1))] = f[0] == '+';
  }
  return on;
}

// An x86 target's SIMD: its -mattr features over what its -mcpu implies.
void SetX86Simd(const codegen::LlvmTarget& t, topi::CpuInfo& cpu) {
  const std::map<std::string, bool> features = ParseFeatures(t.features);
  auto has = [&](const std::string& name, bool implied) {
    auto it = features.find(name);
    return it == features.end() ? implied : it->second;
  };
  const bool avx2 = has("avx2", CpuHasAvx2(t.cpu));
  if (avx2 && has("avx512f", CpuHasAvx512(t.cpu))) {
    cpu.vector_bits = 512;
    cpu.vector_registers = 32;
  } else if (avx2) {
    cpu.vector_bits = 256;
    cpu.vector_registers = 16;
  } else {
    cpu.vector_bits = 128;
    cpu.vector_registers = 16;
  }
  cpu.has_fma = has("fma", CpuHasAvx2(t.cpu));
}

}  // namespace

topi::CpuInfo CpuInfoOf(const Target& target) {
  const codegen::LlvmTarget& t = target.llvm();  // a GPU's host is this machine
  if (t.is_host) {
    // Cores and caches are the host's; the SIMD is what the code may use, which an explicit
    // -mcpu/-mattr can narrow (`llvm -mcpu=haswell` on an AVX-512 host gets AVX2 code).
    topi::CpuInfo cpu = topi::DetectHostCpu();
    if (t.is_x86_64()) SetX86Simd(t, cpu);
    return cpu;
  }
  topi::CpuInfo cpu;
  cpu.model = t.ToString();
  if (t.is_aarch64()) {
    cpu.vector_bits = 128;
    cpu.vector_registers = 32;
    cpu.has_fma = true;
    return cpu;
  }
  SetX86Simd(t, cpu);
  return cpu;
}

}  // namespace tunefarm::target
