#include "compiler/codegen/cuda/build_cuda.h"

#include <cstdio>
#include <cstdlib>

#include "absl/strings/str_cat.h"
#include "compiler/codegen/cuda/nvrtc_compile.h"
#include "compiler/codegen/gpu/gpu_module_build.h"

namespace tunefarm::codegen::cuda {
namespace {

gpu::GpuLaunchLimits CudaLimits() {
  gpu::GpuLaunchLimits limits;
  limits.target = "CUDA";
  return limits;  // the defaults are CUDA's
}

}  // namespace

absl::StatusOr<std::string> GenerateCudaSource(const std::vector<ir::PrimFunc>& funcs) {
  absl::StatusOr<runtime::gpu::GpuModuleImage> image =
      gpu::BuildGpuModuleSource(funcs, gpu::GpuDialect::kCuda, CudaLimits());
  if (!image.ok()) return image.status();
  return std::move(image->code);
}

absl::StatusOr<runtime::gpu::GpuModuleImage> BuildCuda(const std::vector<ir::PrimFunc>& funcs,
                                                       const target::CudaTarget& target) {
  if (funcs.empty()) return absl::InvalidArgumentError("BuildCuda: no functions");
  absl::StatusOr<runtime::gpu::GpuModuleImage> image =
      gpu::BuildGpuModuleSource(funcs, gpu::GpuDialect::kCuda, CudaLimits());
  if (!image.ok()) return image.status();
  image->api = runtime::gpu::GpuApi::kCuda;
  image->arch = target.arch();
  if (const char* dump = std::getenv("TUNEFARM_DUMP_CUDA"); dump != nullptr && *dump != '\0') {
    std::fprintf(stderr, "// CUDA C for %s\n%s\n", funcs[0].name.c_str(), image->code.c_str());
  }
  absl::StatusOr<std::string> ptx = CompileToPtx(image->code, funcs[0].name + ".cu", target);
  if (!ptx.ok()) return ptx.status();
  image->code = std::move(*ptx);
  return image;
}

absl::StatusOr<runtime::gpu::GpuModuleImage> BuildCuda(const ir::PrimFunc& func,
                                                       const target::CudaTarget& target) {
  return BuildCuda(std::vector<ir::PrimFunc>{func}, target);
}

}  // namespace tunefarm::codegen::cuda
