#include "compiler/target/opencl_target.h"

#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"

namespace tunefarm::target {
namespace {

constexpr const char* kAccepted =
    "accepted: `opencl` or `opencl -device=D` with D one of mali, adreno, intel_graphics, pocl";

absl::Status BadOpenCl(std::string_view text, std::string_view why) {
  return absl::InvalidArgumentError(absl::StrCat("bad OpenCL target \"", std::string(text),
                                                 "\": ", std::string(why), "; ", kAccepted));
}

}  // namespace

std::string OpenClTarget::device_name() const {
  switch (device) {
    case Device::kMali:
      return "mali";
    case Device::kAdreno:
      return "adreno";
    case Device::kIntelGraphics:
      return "intel_graphics";
    case Device::kPocl:
      return "pocl";
    case Device::kGeneric:
      break;
  }
  return "generic";
}

std::string OpenClTarget::ToString() const {
  return device == Device::kGeneric ? "opencl" : "opencl -device=" + device_name();
}

int64_t OpenClTarget::max_threads() const {
  return device == Device::kAdreno || device == Device::kPocl ? 1024 : 256;
}

int OpenClTarget::vector_lanes() const {
  return device == Device::kMali || device == Device::kIntelGraphics ? 4 : 1;
}

absl::StatusOr<OpenClTarget> ParseOpenClTarget(std::string_view text) {
  std::vector<std::string> words =
      absl::StrSplit(absl::string_view(text.data(), text.size()), ' ', absl::SkipWhitespace());
  if (words.empty() || words[0] != "opencl") return BadOpenCl(text, "the kind must be `opencl`");
  OpenClTarget target;
  bool seen_device = false;
  for (size_t i = 1; i < words.size(); ++i) {
    absl::string_view word = words[i];
    if (!absl::ConsumePrefix(&word, "-device=")) {
      return BadOpenCl(text, absl::StrCat("unknown option `", std::string(word), "`"));
    }
    if (seen_device) return BadOpenCl(text, "-device given twice");
    seen_device = true;
    if (word == "mali") {
      target.device = OpenClTarget::Device::kMali;
    } else if (word == "adreno") {
      target.device = OpenClTarget::Device::kAdreno;
    } else if (word == "intel_graphics") {
      target.device = OpenClTarget::Device::kIntelGraphics;
    } else if (word == "pocl") {
      target.device = OpenClTarget::Device::kPocl;
    } else {
      return BadOpenCl(text, absl::StrCat("unknown device `", std::string(word), "`"));
    }
  }
  return target;
}

}  // namespace tunefarm::target
