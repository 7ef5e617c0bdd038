// Private: LLVM's Error and Expected become absl::Status at the edge of every LLVM call, so no
// llvm::Error (which aborts when dropped unchecked) escapes this folder.
#pragma once

#include <llvm/Support/Error.h>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace tunefarm::codegen {

inline absl::Status FromLlvmError(llvm::Error error, absl::string_view context) {
  if (!error) return absl::OkStatus();
  return absl::InternalError(absl::StrCat(context, ": ", llvm::toString(std::move(error))));
}

}  // namespace tunefarm::codegen
