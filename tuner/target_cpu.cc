// CpuInfoForTarget: the host is measured; a cross target's SIMD width comes from its -mattr and
// -mcpu, since there is no machine to ask (cores and caches stay at CpuInfo's defaults).
#include "tuner/target_cpu.h"

#include <string_view>

#include "absl/strings/match.h"
#include "compiler/codegen/llvm/target.h"

namespace tunefarm::tuner {
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

}  // namespace

absl::StatusOr<std::string> CanonicalTarget(const std::string& target) {
  absl::StatusOr<codegen::Target> t = codegen::ParseTarget(target);
  if (!t.ok()) return t.status();
  return t->ToString();
}

absl::StatusOr<topi::CpuInfo> CpuInfoForTarget(const std::string& target) {
  absl::StatusOr<codegen::Target> t = codegen::ParseTarget(target);
  if (!t.ok()) return t.status();
  if (t->is_host) return topi::DetectHostCpu();
  topi::CpuInfo cpu;
  cpu.model = t->ToString();
  if (t->is_aarch64()) {
    cpu.vector_bits = 128;
    cpu.vector_registers = 32;
    cpu.has_fma = true;
    return cpu;
  }
  const std::string& f = t->features;
  if (absl::StrContains(f, "+avx512f") ||
      (CpuHasAvx512(t->cpu) && !absl::StrContains(f, "-avx512f"))) {
    cpu.vector_bits = 512;
    cpu.vector_registers = 32;
  } else if (absl::StrContains(f, "+avx2") ||
             (CpuHasAvx2(t->cpu) && !absl::StrContains(f, "-avx2"))) {
    cpu.vector_bits = 256;
    cpu.vector_registers = 16;
  } else {
    cpu.vector_bits = 128;
    cpu.vector_registers = 16;
  }
  cpu.has_fma = absl::StrContains(f, "+fma") || CpuHasAvx2(t->cpu);
  return cpu;
}

}  // namespace tunefarm::tuner
