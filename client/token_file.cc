#include "client/token_file.h"

#include <fstream>

#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"

namespace tunefarm::client {

absl::StatusOr<std::string> ReadTokenFile(const std::string& path) {
  if (path.empty()) return std::string();
  std::ifstream in(path);
  if (!in) return absl::NotFoundError(absl::StrCat("cannot read the token file ", path));
  std::string line;
  std::getline(in, line);
  std::string token(absl::StripAsciiWhitespace(line));
  if (token.empty()) {
    return absl::InvalidArgumentError(absl::StrCat("the token file ", path, " is empty"));
  }
  return token;
}

}  // namespace tunefarm::client
