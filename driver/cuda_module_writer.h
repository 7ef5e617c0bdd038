// `tunefarm build --target cuda`: a lowered GPU function compiled into a CUDA module file (PTX plus
// its launches, runtime/cuda/cuda_module.h), with ptxas's resource report for each kernel.
#pragma once

#include <string>

#include "absl/status/statusor.h"
#include "compiler/ir/function.h"
#include "compiler/target/cuda_target.h"

namespace tunefarm::driver {

// Writes the module to `path`; returns one line per kernel ("kernel K: R registers, S bytes
// shared"). FailedPrecondition when this tunefarm was built without the CUDA toolkit.
absl::StatusOr<std::string> WriteCudaModule(const ir::PrimFunc& func,
                                            const target::CudaTarget& target,
                                            const std::string& path);

}  // namespace tunefarm::driver
