// An OpenCL code generation target parsed from a TVM-style string: `opencl` or
// `opencl -device=mali|adreno|intel_graphics|pocl`. The device profile picks default schedules
// and the work-group limits kernels are built within (the device's own limits, reported by its
// worker, prune further).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"

namespace tunefarm::target {

struct OpenClTarget {
  enum class Device : uint8_t { kGeneric, kMali, kAdreno, kIntelGraphics, kPocl };
  Device device = Device::kGeneric;

  // "mali", ... ; "generic" for plain `opencl`.
  std::string device_name() const;
  // The canonical string, stable for record keys: "opencl" or "opencl -device=mali".
  std::string ToString() const;
  // Work-items per work-group every device of the profile runs (Mali GPUs from Midgard on and
  // Intel graphics run 256; Adreno 6xx 1024; PoCL on a CPU 4096, kept to 1024 like a GPU).
  int64_t max_threads() const;
  // __local memory every device of the profile has: OpenCL 1.2's minimum, 32 KiB.
  int64_t max_local_bytes() const { return 32 * 1024; }
  // Lanes of the vector loads its schedules prefer (Mali's and Intel's ALUs are 128-bit wide).
  int vector_lanes() const;
};

// Errors list what is accepted.
absl::StatusOr<OpenClTarget> ParseOpenClTarget(std::string_view text);

}  // namespace tunefarm::target
