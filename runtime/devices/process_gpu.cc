#include "runtime/devices/process_gpu.h"

#include <cstdlib>
#include <mutex>
#include <optional>
#include <string>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "runtime/cuda/cuda_device.h"
#include "runtime/opencl/opencl_device.h"

namespace tunefarm::runtime::devices {

absl::StatusOr<OpenClChoice> ParseOpenClChoice(std::string_view text) {
  const size_t colon = text.find(':');
  OpenClChoice choice;
  const absl::string_view whole(text.data(), text.size());
  if (colon == std::string_view::npos ||
      !absl::SimpleAtoi(whole.substr(0, colon), &choice.platform) ||
      !absl::SimpleAtoi(whole.substr(colon + 1), &choice.device) || choice.platform < 0 ||
      choice.device < 0) {
    return absl::InvalidArgumentError(absl::StrCat("bad OpenCL device '", std::string(text),
                                                   "': expected PLATFORM:DEVICE, e.g. 0:0"));
  }
  return choice;
}

namespace {

std::mutex& ChoiceMutex() {
  static auto* mu = new std::mutex;
  return *mu;
}
std::optional<OpenClChoice>& ChosenOpenCl() {
  static auto* choice = new std::optional<OpenClChoice>;
  return *choice;
}
bool& OpenClOpened() {
  static bool opened = false;
  return opened;
}

}  // namespace

absl::Status ChooseOpenClDevice(OpenClChoice choice) {
  std::lock_guard<std::mutex> lock(ChoiceMutex());
  if (OpenClOpened()) {
    return absl::FailedPreconditionError(
        "the process's OpenCL device is already open: choose it before first use");
  }
  ChosenOpenCl() = choice;
  return absl::OkStatus();
}

absl::Status ChooseOpenClDevice(std::string_view text) {
  absl::StatusOr<OpenClChoice> choice = ParseOpenClChoice(text);
  if (!choice.ok()) return choice.status();
  return ChooseOpenClDevice(*choice);
}

absl::StatusOr<std::shared_ptr<gpu::GpuDevice>> OpenGpuDevice(gpu::GpuApi api) {
  if (api == gpu::GpuApi::kCuda) {
    absl::StatusOr<std::shared_ptr<cuda::CudaDevice>> device = cuda::CudaDevice::Open(0);
    if (!device.ok()) return device.status();
    return std::shared_ptr<gpu::GpuDevice>(*std::move(device));
  }
  OpenClChoice choice;
  std::optional<OpenClChoice> chosen;
  {
    std::lock_guard<std::mutex> lock(ChoiceMutex());
    chosen = ChosenOpenCl();
  }
  if (chosen) {
    choice = *chosen;
  } else if (const char* env = std::getenv("TUNEFARM_OPENCL_DEVICE");
             env != nullptr && *env != '\0') {
    absl::StatusOr<OpenClChoice> parsed = ParseOpenClChoice(env);
    if (!parsed.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("TUNEFARM_OPENCL_DEVICE: ", parsed.status().message()));
    }
    choice = *parsed;
  }
  absl::StatusOr<std::shared_ptr<opencl::OpenClDevice>> device =
      opencl::OpenClDevice::Open(choice.platform, choice.device);
  if (!device.ok()) return device.status();
  return std::shared_ptr<gpu::GpuDevice>(*std::move(device));
}

absl::StatusOr<std::shared_ptr<gpu::GpuDevice>> ProcessGpuDevice(gpu::GpuApi api) {
  // Never destroyed: drivers tear themselves down at exit, and a device released after that
  // crashes in the driver.
  static std::mutex mu;
  static auto* cuda =
      new absl::StatusOr<std::shared_ptr<gpu::GpuDevice>>(absl::UnknownError("not opened"));
  static auto* opencl =
      new absl::StatusOr<std::shared_ptr<gpu::GpuDevice>>(absl::UnknownError("not opened"));
  static bool opened[2] = {false, false};
  std::lock_guard<std::mutex> lock(mu);
  const int i = api == gpu::GpuApi::kCuda ? 0 : 1;
  auto* slot = i == 0 ? cuda : opencl;
  if (!opened[i]) {
    *slot = OpenGpuDevice(api);
    opened[i] = true;
    if (i == 1) {
      std::lock_guard<std::mutex> choice_lock(ChoiceMutex());
      OpenClOpened() = true;
    }
  }
  return *slot;
}

}  // namespace tunefarm::runtime::devices
