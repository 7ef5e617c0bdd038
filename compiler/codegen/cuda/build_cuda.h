// Lowered GPU functions to a CUDA module image (`tunefarm build/run --target cuda`): split into
// kernels, CUDA C, PTX with NVRTC, and per host function its signature and launches.
#pragma once

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler/ir/function.h"
#include "compiler/target/cuda_target.h"
#include "runtime/gpu/gpu_module.h"

namespace tunefarm::codegen::cuda {

// The CUDA C translation unit for `funcs` (lowered with PassOptions::target "cuda"), for dumps
// and tests; BuildCuda compiles exactly this.
absl::StatusOr<std::string> GenerateCudaSource(const std::vector<ir::PrimFunc>& funcs);

// Errors: what SplitHostDevice and the emitter refuse (InvalidArgument/Unimplemented, naming the
// statement), a signature the runtime cannot describe, NVRTC's rejection (with source lines).
absl::StatusOr<runtime::gpu::GpuModuleImage> BuildCuda(const std::vector<ir::PrimFunc>& funcs,
                                                       const target::CudaTarget& target);
absl::StatusOr<runtime::gpu::GpuModuleImage> BuildCuda(const ir::PrimFunc& func,
                                                       const target::CudaTarget& target);

}  // namespace tunefarm::codegen::cuda
