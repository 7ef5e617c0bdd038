// Lexer of the TE script language: source text to tokens, Python-style (# comments, newlines end
// statements except inside brackets or after a backslash).
#pragma once

#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "compiler/script/token.h"

namespace tunefarm::script {

// The tokens of `source`, ending with kEnd. Errors are InvalidArgument "FILE:LINE:COL: message".
absl::StatusOr<std::vector<Token>> Lex(absl::string_view source, absl::string_view filename);

}  // namespace tunefarm::script
