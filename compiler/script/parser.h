// Parser of the TE script language: source text to a syntax tree (ast.h), or the first syntax
// error with its position and what was expected there.
#pragma once

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "compiler/script/ast.h"

namespace tunefarm::script {

// `import ...` and `from ... import ...` lines are accepted and dropped. Errors are
// InvalidArgument "FILE:LINE:COL: expected ..., got ...".
absl::StatusOr<ast::Module> Parse(absl::string_view source, absl::string_view filename);

}  // namespace tunefarm::script
