// The GPU a process measures and runs models on, per API: CUDA device 0, or the OpenCL device
// TUNEFARM_OPENCL_DEVICE names ("PLATFORM:DEVICE", default 0:0; a worker started with
// `--device opencl:P:D` sets it for its measure children). Opened once and shared.
#pragma once

#include <memory>
#include <string_view>

#include "absl/status/statusor.h"
#include "runtime/gpu/gpu_api.h"
#include "runtime/gpu/gpu_device.h"

namespace tunefarm::runtime::devices {

// "0:1" -> {0, 1}. InvalidArgument naming the text for anything else.
struct OpenClChoice {
  int platform = 0;
  int device = 0;
};
absl::StatusOr<OpenClChoice> ParseOpenClChoice(std::string_view text);

// Names the process's OpenCL device before its first use (a worker's `--device opencl:P:D`, the
// measure child's `--opencl-device P:D`); it wins over TUNEFARM_OPENCL_DEVICE.
// FailedPrecondition once ProcessGpuDevice(kOpenCl) has opened one.
absl::Status ChooseOpenClDevice(OpenClChoice choice);
// ParseOpenClChoice, then ChooseOpenClDevice: for a measure child's `--opencl-device P:D`.
absl::Status ChooseOpenClDevice(std::string_view text);

// The flag a worker passes its measure children to name its device, and its value.
inline constexpr char kOpenClDeviceFlag[] = "--opencl-device";

// Opens a new handle on the device (not shared): for listing and tests.
absl::StatusOr<std::shared_ptr<gpu::GpuDevice>> OpenGpuDevice(gpu::GpuApi api);

// The process's device of `api`, opened on first use; a failure (no driver, no device, a bad
// TUNEFARM_OPENCL_DEVICE) is remembered and returned to every caller.
absl::StatusOr<std::shared_ptr<gpu::GpuDevice>> ProcessGpuDevice(gpu::GpuApi api);

}  // namespace tunefarm::runtime::devices
