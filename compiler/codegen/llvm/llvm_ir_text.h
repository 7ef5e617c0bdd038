// The LLVM IR the code generator makes for a list of functions, as text: for tests that check
// what reaches LLVM (noalias, alignment, loop metadata, branch weights) and for debugging.
// No LLVM types here.
#pragma once

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler/codegen/llvm/llvm_target.h"
#include "compiler/ir/function.h"

namespace tunefarm::codegen {

// `optimized` false: straight from the code generator; true: after the O3 pipeline.
absl::StatusOr<std::string> LlvmIrText(const std::vector<ir::PrimFunc>& funcs,
                                       const LlvmTarget& target, bool optimized);

}  // namespace tunefarm::codegen
