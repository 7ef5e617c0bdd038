#include "driver/cuda_module_writer.h"

#include "absl/strings/str_cat.h"

#ifdef TUNEFARM_HAVE_CUDA
#include "compiler/codegen/cuda/build_cuda.h"
#include "compiler/codegen/cuda/nvrtc_compile.h"
#endif

namespace tunefarm::driver {

#ifdef TUNEFARM_HAVE_CUDA

absl::StatusOr<std::string> WriteCudaModule(const ir::PrimFunc& func,
                                            const target::CudaTarget& target,
                                            const std::string& path) {
  absl::StatusOr<runtime::cuda::CudaModuleImage> image =
      codegen::cuda::ExportCudaModule(func, target, path);
  if (!image.ok()) return image.status();
  std::string report;
  absl::StatusOr<std::vector<codegen::cuda::KernelResources>> resources =
      codegen::cuda::PtxasReport(image->ptx, image->arch);
  if (!resources.ok()) {
    return absl::StrCat("(ptxas report unavailable: ", resources.status().message(), ")\n");
  }
  for (const codegen::cuda::KernelResources& k : *resources) {
    absl::StrAppend(&report, "kernel ", k.kernel, ": ", k.registers, " registers, ", k.shared_bytes,
                    " bytes shared\n");
  }
  return report;
}

#else

absl::StatusOr<std::string> WriteCudaModule(const ir::PrimFunc&, const target::CudaTarget& target,
                                            const std::string&) {
  return absl::FailedPreconditionError(
      absl::StrCat("target '", target.ToString(),
                   "': this tunefarm was built without the CUDA toolkit (NVRTC)"));
}

#endif

}  // namespace tunefarm::driver
