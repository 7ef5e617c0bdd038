#include "runtime/gpu/gpu_api.h"

namespace tunefarm::runtime::gpu {

const char* GpuApiName(GpuApi api) { return api == GpuApi::kCuda ? "cuda" : "opencl"; }

const char* GpuApiTitle(GpuApi api) { return api == GpuApi::kCuda ? "CUDA" : "OpenCL"; }

std::optional<GpuApi> ParseGpuApi(std::string_view name) {
  if (name == "cuda") return GpuApi::kCuda;
  if (name == "opencl") return GpuApi::kOpenCl;
  return std::nullopt;
}

}  // namespace tunefarm::runtime::gpu
