#include "tracker/http/query_token.h"

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_split.h"

namespace tunefarm::tracker {
namespace {

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  return absl::ascii_tolower(static_cast<unsigned char>(c)) - 'a' + 10;
}

}  // namespace

std::string QueryTokenOf(absl::string_view target) {
  const size_t query = target.find('?');
  if (query == absl::string_view::npos) return "";
  for (absl::string_view field : absl::StrSplit(target.substr(query + 1), '&')) {
    if (!absl::StartsWith(field, "token=")) continue;
    std::string value;
    for (size_t i = 6; i < field.size(); ++i) {
      if (field[i] == '%' && i + 2 < field.size() && absl::ascii_isxdigit(field[i + 1]) &&
          absl::ascii_isxdigit(field[i + 2])) {
        value += static_cast<char>(HexValue(field[i + 1]) * 16 + HexValue(field[i + 2]));
        i += 2;
      } else {
        value += field[i];
      }
    }
    return value;
  }
  return "";
}

}  // namespace tunefarm::tracker
