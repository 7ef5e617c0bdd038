// Tokens of the TE script language: what the lexer produces and the parser consumes, each with
// the line and column where it starts, so every later error can point at its source.
#pragma once

#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace tunefarm::script {

// A 1-based line and column in the script source.
struct Pos {
  int line = 1;
  int column = 1;
};

enum class TokenKind : uint8_t {
  kName,     // identifier
  kKeyword,  // lambda and or not True False None import from as
  kInt,
  kFloat,
  kString,
  kOp,       // punctuation and operators; `text` holds the spelling ("(", "//", "<=", ...)
  kNewline,  // end of a logical line
  kEnd,      // end of the source
};

struct Token {
  TokenKind kind = TokenKind::kEnd;
  std::string text;  // the spelling; for a string literal, its value with escapes resolved
  Pos pos;
  int64_t int_value = 0;
  double float_value = 0.0;

  bool Is(TokenKind k, absl::string_view t) const { return kind == k && text == t; }
  bool IsOp(absl::string_view t) const { return Is(TokenKind::kOp, t); }
  bool IsKeyword(absl::string_view t) const { return Is(TokenKind::kKeyword, t); }
};

// How a token reads in an error message: `'foo'`, `end of line`, `end of file`, ...
std::string Describe(const Token& token);

// The error every stage of the script front end reports: InvalidArgument "FILE:LINE:COL: message".
absl::Status ErrorAt(absl::string_view filename, Pos pos, absl::string_view message);

}  // namespace tunefarm::script
