// Workload keys: "<template>:<args>:<dtype>", strict enough that a key read back from the
// database or typed on the command line means exactly one task.
#include "tuner/workload.h"

#include <charconv>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "runtime/core/abbreviate.h"

namespace tunefarm::tuner {
namespace {

// Quotes at most runtime::kMaxQuotedBytes of the key: the message goes back over gRPC, whose
// metadata limit a long key would exceed.
absl::Status BadKey(std::string_view key, std::string_view why) {
  return absl::InvalidArgumentError(absl::StrCat(
      "bad workload key '", runtime::Abbreviate(key), "': ", std::string(why),
      " (expected '<template>:<int>,<int>,...[:<dtype>]', e.g. 'matmul:1024,1024,1024:float32')"));
}

bool IsNameChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '-' || c == '.' || c == '/' || c == '@';
}

}  // namespace

std::string Workload::Key() const {
  return absl::StrCat(template_name, ":", absl::StrJoin(args, ","), ":", dtype);
}

absl::StatusOr<Workload> ParseWorkloadKey(std::string_view key) {
  if (key.size() > kMaxWorkloadKeyBytes) {
    return BadKey(key, absl::StrCat("it is ", key.size(), " bytes long, over the limit of ",
                                    kMaxWorkloadKeyBytes));
  }
  std::vector<std::string> parts = absl::StrSplit(absl::string_view(key.data(), key.size()), ':');
  if (parts.size() < 2 || parts.size() > 3) {
    return BadKey(key, "it needs two or three ':'-separated parts");
  }
  Workload w;
  if (parts[0].empty()) return BadKey(key, "the template name is empty");
  for (char c : parts[0]) {
    if (!IsNameChar(c)) {
      return BadKey(key,
                    absl::StrCat("the template name has the character '", std::string(1, c), "'"));
    }
  }
  w.template_name = std::string(parts[0]);
  if (!parts[1].empty()) {
    for (const std::string& a : std::vector<std::string>(absl::StrSplit(parts[1], ','))) {
      int64_t v = 0;
      auto [end, ec] = std::from_chars(a.data(), a.data() + a.size(), v);
      if (a.empty() || ec != std::errc() || end != a.data() + a.size()) {
        return BadKey(key,
                      absl::StrCat("argument '", runtime::Abbreviate(a), "' is not an integer"));
      }
      w.args.push_back(v);
    }
  }
  if (parts.size() == 3) {
    if (parts[2].empty()) return BadKey(key, "the dtype is empty");
    w.dtype = std::string(parts[2]);
  }
  return w;
}

}  // namespace tunefarm::tuner
