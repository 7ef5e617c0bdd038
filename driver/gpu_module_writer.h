// `tunefarm build --target cuda|opencl`: a lowered GPU function built into a GPU module file
// (runtime/gpu/gpu_module.h) with a report of its kernels: ptxas's resources for CUDA; for
// OpenCL each kernel's work-group, and whether this machine's OpenCL device compiles the source.
#pragma once

#include <string>

#include "absl/status/statusor.h"
#include "compiler/ir/function.h"
#include "compiler/target/target.h"

namespace tunefarm::driver {

// Writes the module to `path`; returns one line per kernel ("kernel K: R registers, S bytes
// shared" / "kernel K: work-group 64x1x1"), and for OpenCL a line on the local compile check.
// Errors: codegen::BuildGpuModule's, and the file's.
absl::StatusOr<std::string> WriteGpuModule(const ir::PrimFunc& func, const target::Target& target,
                                           const std::string& path);

}  // namespace tunefarm::driver
