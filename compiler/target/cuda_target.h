// A CUDA code generation target parsed from a TVM-style string: `cuda` (sm_90) or
// `cuda -arch=sm_80`. NVRTC 13 compiles for compute_75 and newer, so older archs are refused.
#pragma once

#include <string>
#include <string_view>

#include "absl/status/statusor.h"

namespace tunefarm::target {

struct CudaTarget {
  int sm = 90;  // compute capability major*10 + minor

  std::string arch() const { return "sm_" + std::to_string(sm); }               // ptxas, module
  std::string virtual_arch() const { return "compute_" + std::to_string(sm); }  // NVRTC
  // The canonical string, stable for record keys: "cuda -arch=sm_90".
  std::string ToString() const { return "cuda -arch=" + arch(); }
};

// Errors list what is accepted (the `cuda` kind, the -arch option, the known archs), and say why
// an arch below sm_75 is refused.
absl::StatusOr<CudaTarget> ParseCudaTarget(std::string_view text);

}  // namespace tunefarm::target
