#include "compiler/codegen/gpu_target/build_gpu_module.h"

#include <fstream>

#include "absl/strings/str_cat.h"
#include "compiler/codegen/opencl/build_opencl.h"
#ifdef TUNEFARM_HAVE_CUDA
#include "compiler/codegen/cuda/build_cuda.h"
#endif

namespace tunefarm::codegen {

absl::StatusOr<runtime::gpu::GpuModuleImage> BuildGpuModule(const std::vector<ir::PrimFunc>& funcs,
                                                            const target::Target& target) {
  if (target.is_opencl()) return opencl::BuildOpenCl(funcs, target.opencl());
  if (!target.is_cuda()) {
    return absl::FailedPreconditionError(
        absl::StrCat("target '", target.str(), "' is a CPU: it builds libraries, not GPU modules"));
  }
#ifdef TUNEFARM_HAVE_CUDA
  return cuda::BuildCuda(funcs, target.cuda());
#else
  (void)funcs;
  return absl::UnimplementedError(absl::StrCat(
      "target '", target.str(), "': this tunefarm was built without the CUDA toolkit (NVRTC)"));
#endif
}

absl::Status ExportGpuModule(const std::vector<ir::PrimFunc>& funcs, const target::Target& target,
                             const std::string& path) {
  absl::StatusOr<runtime::gpu::GpuModuleImage> image = BuildGpuModule(funcs, target);
  if (!image.ok()) return image.status();
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << runtime::gpu::SerializeGpuModule(*image);
  out.close();
  if (!out) return absl::UnavailableError(absl::StrCat("cannot write ", path));
  return absl::OkStatus();
}

}  // namespace tunefarm::codegen
