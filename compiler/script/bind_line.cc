#include "compiler/script/bind_line.h"

#include <charconv>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "compiler/script/token.h"

namespace tunefarm::script {

absl::StatusOr<std::optional<std::map<std::string, int64_t>>> ParseBindLine(
    std::string_view source, std::string_view filename) {
  absl::string_view file(filename.data(), filename.size());
  absl::string_view line(source.data(), source.size());
  line = line.substr(0, line.find('\n'));
  constexpr absl::string_view kPrefix = "# bind:";
  if (!absl::StartsWith(line, kPrefix)) return std::nullopt;
  std::map<std::string, int64_t> values;
  size_t offset = kPrefix.size();
  for (absl::string_view item : absl::StrSplit(line.substr(kPrefix.size()), ',')) {
    const Pos pos{1, static_cast<int>(offset) + 1};
    offset += item.size() + 1;
    absl::string_view trimmed = absl::StripAsciiWhitespace(item);
    if (trimmed.empty()) continue;
    std::vector<absl::string_view> kv = absl::StrSplit(trimmed, absl::MaxSplits('=', 1));
    std::string name(kv.size() == 2 ? absl::StripAsciiWhitespace(kv[0]) : "");
    std::string text(kv.size() == 2 ? absl::StripAsciiWhitespace(kv[1]) : "");
    int64_t value = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (name.empty() || text.empty() || ec != std::errc() || end != text.data() + text.size()) {
      return ErrorAt(file, pos,
                     absl::StrCat("malformed bind item '", trimmed,
                                  "': expected NAME=INTEGER, as in # bind: n=64,m=32"));
    }
    if (!values.emplace(name, value).second) {
      return ErrorAt(file, pos, absl::StrCat("the bind line gives ", name, " twice"));
    }
  }
  return values;
}

}  // namespace tunefarm::script
