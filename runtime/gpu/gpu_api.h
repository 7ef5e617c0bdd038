// Which GPU programming interface a module or device speaks: CUDA (NVIDIA's driver API) or
// OpenCL (Mali, Adreno, Intel and AMD graphics, PoCL on a CPU).
#pragma once

#include <optional>
#include <string_view>

namespace tunefarm::runtime::gpu {

enum class GpuApi { kCuda, kOpenCl };

// "cuda", "opencl": as targets, files and flags spell it.
const char* GpuApiName(GpuApi api);
// "CUDA", "OpenCL": as sentences spell it.
const char* GpuApiTitle(GpuApi api);
std::optional<GpuApi> ParseGpuApi(std::string_view name);

}  // namespace tunefarm::runtime::gpu
