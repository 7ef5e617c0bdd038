// Which device a tuning target string means: a CPU through LLVM ("llvm ...") or an NVIDIA GPU
// through CUDA C and NVRTC ("cuda ..."). Templates, builders and runners branch on it.
#pragma once

#include <string_view>

namespace tunefarm::tuner {

enum class TargetKind { kCpu, kCuda };

// kCuda for "cuda" and "cuda -arch=...", kCpu for everything else (LLVM parses and checks those).
inline TargetKind TargetKindOf(std::string_view target) {
  return target == "cuda" || target.substr(0, 5) == "cuda " ? TargetKind::kCuda : TargetKind::kCpu;
}

inline const char* TargetKindName(TargetKind kind) {
  return kind == TargetKind::kCuda ? "cuda" : "cpu";
}

}  // namespace tunefarm::tuner
