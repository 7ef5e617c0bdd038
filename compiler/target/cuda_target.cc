#include "compiler/target/cuda_target.h"

#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"

namespace tunefarm::target {
namespace {

// The real architectures NVRTC 13 can target (compute_75 and newer).
const std::vector<int>& KnownArchs() {
  static const std::vector<int> archs = {75, 80, 86, 87, 88, 89, 90, 100, 103, 110, 120, 121};
  return archs;
}

std::string Accepted() {
  std::vector<std::string> names;
  for (int sm : KnownArchs()) names.push_back(absl::StrCat("sm_", sm));
  return absl::StrCat("accepted: `cuda` (sm_90) or `cuda -arch=sm_XX` with XX one of ",
                      absl::StrJoin(names, ", "));
}

absl::Status Bad(std::string_view text, std::string_view why) {
  return absl::InvalidArgumentError(absl::StrCat("bad CUDA target \"", std::string(text),
                                                 "\": ", std::string(why), "; ", Accepted()));
}

}  // namespace

absl::StatusOr<CudaTarget> ParseCudaTarget(std::string_view text) {
  std::vector<std::string> words =
      absl::StrSplit(absl::string_view(text.data(), text.size()), ' ', absl::SkipWhitespace());
  if (words.empty() || words[0] != "cuda") return Bad(text, "the kind must be `cuda`");
  CudaTarget target;
  bool seen_arch = false;
  for (size_t i = 1; i < words.size(); ++i) {
    absl::string_view word = words[i];
    if (!absl::ConsumePrefix(&word, "-arch=")) {
      return Bad(text, absl::StrCat("unknown option `", std::string(word), "`"));
    }
    if (seen_arch) return Bad(text, "-arch given twice");
    seen_arch = true;
    int sm = 0;
    if (!absl::ConsumePrefix(&word, "sm_") || !absl::SimpleAtoi(word, &sm)) {
      return Bad(text, "-arch must look like sm_90");
    }
    if (sm < 75) {
      return Bad(text, absl::StrCat("sm_", sm,
                                    " is older than sm_75, the oldest architecture NVRTC 13 "
                                    "compiles for (compute_75)"));
    }
    bool known = false;
    for (int k : KnownArchs()) known = known || k == sm;
    if (!known) return Bad(text, absl::StrCat("unknown architecture sm_", sm));
    target.sm = sm;
  }
  return target;
}

}  // namespace tunefarm::target
