// The GPU a worker serves (`--device opencl[:P:D]`): the flag parsed, the device opened once to
// read what its driver says of it (for the registration) and the target it registers, whose
// device profile follows the vendor (`opencl -device=mali` for ARM, adreno for Qualcomm, ...).
#pragma once

#include <string>

#include "absl/status/statusor.h"
#include "runtime/devices/process_gpu.h"
#include "runtime/gpu/gpu_device.h"

namespace tunefarm::rpc_server {

struct ServedGpu {
  runtime::devices::OpenClChoice choice;
  std::string choice_text;  // "P:D", for the measure children's --opencl-device
  std::string platform_name;
  runtime::gpu::DeviceAttributes attributes;
  std::string target;  // what the worker registers
};

// `device` is "opencl" or "opencl:P:D"; `target` is the worker's --target ("llvm" when not
// given: the profile is then chosen from the device). Errors: a malformed flag or a non-opencl
// target (InvalidArgument), no loader, platform or such device (Unavailable/InvalidArgument,
// naming what the machine has).
absl::StatusOr<ServedGpu> OpenServedGpu(const std::string& device, const std::string& target);

// The profile a device's vendor and platform suggest: "mali", "adreno", "intel_graphics", "pocl",
// or "" (plain `opencl`).
std::string OpenClProfileOf(const std::string& platform_name,
                            const runtime::gpu::DeviceAttributes& attributes);

}  // namespace tunefarm::rpc_server
