#include "rpc_server/served_gpu.h"

#include <algorithm>
#include <cctype>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "runtime/opencl/opencl_device.h"

namespace tunefarm::rpc_server {
namespace {

std::string Lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

bool Contains(const std::string& haystack, const char* needle) {
  return Lower(haystack).find(needle) != std::string::npos;
}

}  // namespace

std::string OpenClProfileOf(const std::string& platform_name,
                            const runtime::gpu::DeviceAttributes& attributes) {
  if (Contains(platform_name, "portable computing language") || Contains(platform_name, "pocl")) {
    return "pocl";
  }
  if (Contains(attributes.vendor, "arm") || Contains(attributes.name, "mali")) return "mali";
  if (Contains(attributes.vendor, "qualcomm") || Contains(attributes.name, "adreno")) {
    return "adreno";
  }
  if (Contains(attributes.vendor, "intel")) return "intel_graphics";
  return "";
}

absl::StatusOr<ServedGpu> OpenServedGpu(const std::string& device, const std::string& target) {
  ServedGpu gpu;
  if (device != "opencl" && device.rfind("opencl:", 0) != 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--device '", device, "': expected opencl or opencl:PLATFORM:DEVICE (e.g. opencl:0:0)"));
  }
  gpu.choice_text = device == "opencl" ? "0:0" : device.substr(7);
  absl::StatusOr<runtime::devices::OpenClChoice> choice =
      runtime::devices::ParseOpenClChoice(gpu.choice_text);
  if (!choice.ok())
    return absl::InvalidArgumentError(absl::StrCat("--device: ", choice.status().message()));
  gpu.choice = *choice;
  if (target != "llvm" && target.rfind("opencl", 0) != 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--device ", device, " serves an OpenCL device: its --target must be an opencl one, not '",
        target, "'"));
  }
  absl::StatusOr<std::vector<runtime::opencl::OpenClDeviceInfo>> all =
      runtime::opencl::ListOpenClDevices();
  if (!all.ok()) return all.status();
  std::vector<std::string> known;
  for (const runtime::opencl::OpenClDeviceInfo& info : *all) {
    known.push_back(absl::StrCat(info.platform, ":", info.device, " ", info.attributes.name));
    if (info.platform == gpu.choice.platform && info.device == gpu.choice.device) {
      gpu.platform_name = info.platform_name;
      gpu.attributes = info.attributes;
    }
  }
  if (gpu.attributes.name.empty()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--device ", device,
        ": no such OpenCL device (this machine has: ", absl::StrJoin(known, ", "), ")"));
  }
  if (target != "llvm") {
    gpu.target = target;
  } else {
    const std::string profile = OpenClProfileOf(gpu.platform_name, gpu.attributes);
    gpu.target = profile.empty() ? "opencl" : "opencl -device=" + profile;
  }
  return gpu;
}

}  // namespace tunefarm::rpc_server
