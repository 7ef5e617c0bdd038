// Lowered GPU functions to an OpenCL module image (`tunefarm build/run --target opencl`): the
// same split and printer as CUDA in the OpenCL C dialect, and per host function its signature
// and launches. No OpenCL device is needed: the device's own compiler builds the source when the
// module is loaded (runtime/opencl), so one file serves a Mali, an Adreno or PoCL.
#pragma once

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler/ir/function.h"
#include "compiler/target/opencl_target.h"
#include "runtime/gpu/gpu_module.h"

namespace tunefarm::codegen::opencl {

// Errors: what SplitHostDevice and the printer refuse (InvalidArgument/Unimplemented, naming the
// statement), a signature the runtime cannot describe, a constant work-group over the profile's
// limit. `TUNEFARM_DUMP_OPENCL=1` prints each source to stderr.
absl::StatusOr<runtime::gpu::GpuModuleImage> BuildOpenCl(const std::vector<ir::PrimFunc>& funcs,
                                                         const target::OpenClTarget& target);
absl::StatusOr<runtime::gpu::GpuModuleImage> BuildOpenCl(const ir::PrimFunc& func,
                                                         const target::OpenClTarget& target);

}  // namespace tunefarm::codegen::opencl
