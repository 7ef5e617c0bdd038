// CpuInfoForTarget: the host is measured; a target's SIMD width comes from its -mattr and -mcpu
// (for a cross target there is no machine to ask: cores and caches stay at CpuInfo's defaults).
#include "tuner/target_cpu.h"

#include <map>
#include <string>
#include <string_view>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "compiler/codegen/llvm/target.h"
#include "tuner/target_kind.h"
#ifdef TUNEFARM_HAVE_CUDA
#include "compiler/codegen/cuda/target.h"
#endif

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
void SetX86Simd(const codegen::Target& t, topi::CpuInfo& cpu) {
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

absl::StatusOr<std::string> CanonicalTarget(const std::string& target) {
  if (TargetKindOf(target) == TargetKind::kCuda) {
#ifdef TUNEFARM_HAVE_CUDA
    absl::StatusOr<codegen::cuda::CudaTarget> cuda = codegen::cuda::ParseCudaTarget(target);
    if (!cuda.ok()) return cuda.status();
    return cuda->ToString();
#else
    return absl::UnimplementedError(
        absl::StrCat("target '", target, "': this tunefarm was built without the CUDA toolkit"));
#endif
  }
  absl::StatusOr<codegen::Target> t = codegen::ParseTarget(target);
  if (!t.ok()) return t.status();
  return t->ToString();
}

absl::StatusOr<topi::CpuInfo> CpuInfoForTarget(const std::string& target) {
  // A GPU target's host is this machine (GPU templates size their knobs by the GPU's limits).
  if (TargetKindOf(target) == TargetKind::kCuda) return CpuInfoForTarget("llvm");
  absl::StatusOr<codegen::Target> t = codegen::ParseTarget(target);
  if (!t.ok()) return t.status();
  if (t->is_host) {
    // Cores and caches are the host's; the SIMD is what the code may use, which an explicit
    // -mcpu/-mattr can narrow (`llvm -mcpu=haswell` on an AVX-512 host gets AVX2 code).
    topi::CpuInfo cpu = topi::DetectHostCpu();
    if (t->is_x86_64()) SetX86Simd(*t, cpu);
    return cpu;
  }
  topi::CpuInfo cpu;
  cpu.model = t->ToString();
  if (t->is_aarch64()) {
    cpu.vector_bits = 128;
    cpu.vector_registers = 32;
    cpu.has_fma = true;
    return cpu;
  }
  SetX86Simd(*t, cpu);
  return cpu;
}

}  // namespace tunefarm::tuner
