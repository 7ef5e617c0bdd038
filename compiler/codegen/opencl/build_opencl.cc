#include "compiler/codegen/opencl/build_opencl.h"

#include <cstdio>
#include <cstdlib>

#include "absl/strings/str_cat.h"
#include "compiler/codegen/gpu/gpu_module_build.h"

namespace tunefarm::codegen::opencl {

absl::StatusOr<runtime::gpu::GpuModuleImage> BuildOpenCl(const std::vector<ir::PrimFunc>& funcs,
                                                         const target::OpenClTarget& target) {
  gpu::GpuLaunchLimits limits;
  limits.target = absl::StrCat("OpenCL (", target.device_name(), ")");
  // NDRange sizes are size_t: only the work-group is bounded by the profile.
  limits.max_grid = {2147483647, 2147483647, 2147483647};
  limits.max_block = {target.max_threads(), target.max_threads(), target.max_threads()};
  limits.max_threads = target.max_threads();
  absl::StatusOr<runtime::gpu::GpuModuleImage> image =
      gpu::BuildGpuModuleSource(funcs, gpu::GpuDialect::kOpenCl, limits);
  if (!image.ok()) return image.status();
  image->api = runtime::gpu::GpuApi::kOpenCl;
  image->arch = target.device_name();
  if (const char* dump = std::getenv("TUNEFARM_DUMP_OPENCL"); dump != nullptr && *dump != '\0') {
    std::fprintf(stderr, "// OpenCL C for %s\n%s\n", funcs[0].name.c_str(), image->code.c_str());
  }
  return image;
}

absl::StatusOr<runtime::gpu::GpuModuleImage> BuildOpenCl(const ir::PrimFunc& func,
                                                         const target::OpenClTarget& target) {
  return BuildOpenCl(std::vector<ir::PrimFunc>{func}, target);
}

}  // namespace tunefarm::codegen::opencl
