// Lowered GPU functions to a module image in either dialect: SplitHostDevice, the C-family
// printer, and per host function its signature and launches (checked against the launch limits
// where the sizes are constants). build_cuda compiles the CUDA C to PTX; OpenCL ships the source,
// which the device's own compiler builds when the module is loaded.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler/codegen/gpu/codegen_gpu.h"
#include "compiler/ir/function.h"
#include "runtime/gpu/gpu_module.h"

namespace tunefarm::codegen::gpu {

// The launch sizes a target allows.
struct GpuLaunchLimits {
  std::string target;  // for messages: "CUDA", "OpenCL (mali)"
  std::array<int64_t, 3> max_grid = {2147483647, 65535, 65535};
  std::array<int64_t, 3> max_block = {1024, 1024, 64};
  int64_t max_threads = 1024;
};

// The image with `code` holding the source in `dialect` (its `api` and `arch` are the caller's).
// Errors: what SplitHostDevice and the printer refuse (InvalidArgument/Unimplemented, naming the
// statement), a signature the runtime cannot describe, a constant launch over `limits`.
absl::StatusOr<runtime::gpu::GpuModuleImage> BuildGpuModuleSource(
    const std::vector<ir::PrimFunc>& funcs, GpuDialect dialect, const GpuLaunchLimits& limits);

}  // namespace tunefarm::codegen::gpu
