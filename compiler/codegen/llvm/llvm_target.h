// A CPU code generation target parsed from a TVM-style string: `llvm` (the host, its CPU and
// features detected), `llvm -mtriple=x86_64-linux-gnu -mcpu=znver3`,
// `llvm -mtriple=aarch64-linux-gnu -mattr=+neon`. No LLVM types here: callers stay light.
#pragma once

#include <string>
#include <string_view>

#include "absl/status/statusor.h"

namespace tunefarm::codegen {

struct LlvmTarget {
  std::string triple;    // e.g. "x86_64-unknown-linux-gnu"
  std::string cpu;       // e.g. "znver3"; the host's when not given
  std::string features;  // LLVM feature string, e.g. "+avx2,+fma"; the host's for `llvm`
  bool is_host = false;  // code for this target can run in this process

  bool is_aarch64() const;
  bool is_x86_64() const;
  // The canonical string, stable for record keys: "llvm -mtriple=... -mcpu=... [-mattr=...]".
  std::string ToString() const;
};

// Errors list what is accepted: the `llvm` kind, the -mtriple/-mcpu/-mattr options, the known
// architectures, and (for a bad -mcpu) a few CPU names valid for that triple.
absl::StatusOr<LlvmTarget> ParseLlvmTarget(std::string_view text);

}  // namespace tunefarm::codegen
