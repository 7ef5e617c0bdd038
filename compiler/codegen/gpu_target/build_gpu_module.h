// Lowered GPU functions to the module of a GPU target, whichever its API: CUDA (NVRTC, where this
// build has the toolkit) or OpenCL (the source its devices compile). The one place above the code
// generators that branches on the API, so tuner, graph and tools do not.
#pragma once

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "compiler/ir/function.h"
#include "compiler/target/target.h"
#include "runtime/gpu/gpu_module.h"

namespace tunefarm::codegen {

// Errors: FailedPrecondition for a CPU target, Unimplemented for `cuda` where this build has no
// CUDA toolkit, and the code generator's.
absl::StatusOr<runtime::gpu::GpuModuleImage> BuildGpuModule(const std::vector<ir::PrimFunc>& funcs,
                                                            const target::Target& target);

// BuildGpuModule, serialized to `path`. Errors: BuildGpuModule's, Unavailable when the file
// cannot be written.
absl::Status ExportGpuModule(const std::vector<ir::PrimFunc>& funcs, const target::Target& target,
                             const std::string& path);

}  // namespace tunefarm::codegen
