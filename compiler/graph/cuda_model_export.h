// A model built for a CUDA GPU (BuildModel with a `cuda` KernelTarget) written as one file: a host
// shared library that holds no kernels, only the graph, the weights and the CUDA module (PTX with
// each kernel's signature and launches) as data symbols, which runtime/graph/cuda loads alone.
// Built where the CUDA toolkit is (TUNEFARM_HAVE_CUDA); NVRTC needs no GPU.
#pragma once

#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "compiler/graph/model_build.h"

namespace tunefarm::graph {

// The kernels of `model` as one CUDA module for the GPU it was built for, serialized
// (runtime/cuda's SerializeCudaModule). Errors: FailedPrecondition for a CPU-built model,
// Unimplemented where this build has no CUDA toolkit, what code generation and NVRTC say.
absl::StatusOr<std::string> BuildCudaModelKernels(const BuiltModel& model);

// Writes the module at `path`, a shared library for the machine that drives the GPU (this one).
// Errors: BuildCudaModelKernels', and the link's.
absl::Status ExportCudaModel(const BuiltModel& model, const std::string& path);

}  // namespace tunefarm::graph
