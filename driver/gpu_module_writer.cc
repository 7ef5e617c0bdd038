#include "driver/gpu_module_writer.h"

#include <fstream>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "compiler/codegen/gpu_target/build_gpu_module.h"
#include "runtime/devices/process_gpu.h"

#ifdef TUNEFARM_HAVE_CUDA
#include "compiler/codegen/cuda/nvrtc_compile.h"
#endif

namespace tunefarm::driver {
namespace {

std::string CudaReport(const runtime::gpu::GpuModuleImage& image) {
#ifdef TUNEFARM_HAVE_CUDA
  absl::StatusOr<std::vector<codegen::cuda::KernelResources>> resources =
      codegen::cuda::PtxasReport(image.code, image.arch);
  if (!resources.ok()) {
    return absl::StrCat("(ptxas report unavailable: ", resources.status().message(), ")\n");
  }
  std::string report;
  for (const codegen::cuda::KernelResources& k : *resources) {
    absl::StrAppend(&report, "kernel ", k.kernel, ": ", k.registers, " registers, ", k.shared_bytes,
                    " bytes shared\n");
  }
  return report;
#else
  (void)image;
  return "";
#endif
}

// Each launch's work-group, and whether this machine's OpenCL device (if any) compiles the
// source: a board's compiler may still refuse what PoCL takes, so this is a check, not a promise.
std::string OpenClReport(const runtime::gpu::GpuModuleImage& image) {
  std::string report;
  for (const runtime::gpu::GpuHostFunction& fn : image.functions) {
    for (const runtime::gpu::GpuLaunch& launch : fn.launches) {
      absl::StrAppend(&report, "kernel ", launch.kernel, ": work-group ",
                      absl::StrJoin(launch.block, "x"), "\n");
    }
  }
  absl::StatusOr<std::shared_ptr<runtime::gpu::GpuDevice>> device =
      runtime::devices::ProcessGpuDevice(runtime::gpu::GpuApi::kOpenCl);
  if (!device.ok()) {
    absl::StrAppend(&report, "(not compiled here: ", device.status().message(), ")\n");
    return report;
  }
  absl::StatusOr<std::shared_ptr<runtime::gpu::LoadedCode>> code = (*device)->Load(image);
  absl::StrAppend(&report, code.ok() ? "compiles on " : "does NOT compile on ",
                  (*device)->attributes().name,
                  code.ok() ? "" : absl::StrCat(": ", code.status().message()), "\n");
  return report;
}

}  // namespace

absl::StatusOr<std::string> WriteGpuModule(const ir::PrimFunc& func, const target::Target& target,
                                           const std::string& path) {
  absl::StatusOr<runtime::gpu::GpuModuleImage> image = codegen::BuildGpuModule({func}, target);
  if (!image.ok()) return image.status();
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << runtime::gpu::SerializeGpuModule(*image);
  out.close();
  if (!out) return absl::UnavailableError(absl::StrCat("cannot write ", path));
  return target.is_cuda() ? CudaReport(*image) : OpenClReport(*image);
}

}  // namespace tunefarm::driver
