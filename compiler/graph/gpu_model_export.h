// A model built for a GPU (BuildModel with a `cuda` or `opencl` KernelTarget) written as one file:
// a host shared library that holds no kernels, only the graph, the weights and the GPU module
// (PTX or OpenCL C, with each kernel's signature and launches) as data symbols, which
// runtime/graph/gpu loads alone. No GPU is needed to build it.
#pragma once

#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "compiler/graph/model_build.h"

namespace tunefarm::graph {

// The kernels of `model` as one GPU module for the target it was built for, serialized
// (runtime/gpu's SerializeGpuModule). Errors: FailedPrecondition for a CPU-built model,
// Unimplemented for CUDA where this build has no CUDA toolkit, what code generation says.
absl::StatusOr<std::string> BuildGpuModelKernels(const BuiltModel& model);

// Writes the module at `path`, a shared library for the machine that drives the GPU (this one).
// Errors: BuildGpuModelKernels', and the link's.
absl::Status ExportGpuModel(const BuiltModel& model, const std::string& path);

}  // namespace tunefarm::graph
