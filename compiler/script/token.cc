#include "compiler/script/token.h"

#include "absl/strings/str_cat.h"

namespace tunefarm::script {

std::string Describe(const Token& token) {
  switch (token.kind) {
    case TokenKind::kNewline:
      return "end of line";
    case TokenKind::kEnd:
      return "end of file";
    case TokenKind::kString:
      return absl::StrCat("string \"", token.text, "\"");
    default:
      return absl::StrCat("'", token.text, "'");
  }
}

absl::Status ErrorAt(absl::string_view filename, Pos pos, absl::string_view message) {
  return absl::InvalidArgumentError(
      absl::StrCat(filename, ":", pos.line, ":", pos.column, ": ", message));
}

}  // namespace tunefarm::script
