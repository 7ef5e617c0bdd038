// Private: one LLVM module from a list of lowered PrimFuncs — their kernels, the manifest and the
// parallel-launch pointer — verified and optimized, ready for object emission.
#pragma once

#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Target/TargetMachine.h>
#include <memory>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler/ir/function.h"
#include "runtime/core/function_signature.h"

namespace tunefarm::codegen {

struct GeneratedModule {
  std::unique_ptr<llvm::LLVMContext> context;
  std::unique_ptr<llvm::Module> module;  // owned by `context`'s lifetime: destroy it first
  std::vector<runtime::FunctionSignature> signatures;

  GeneratedModule() = default;
  GeneratedModule(GeneratedModule&&) = default;
  GeneratedModule& operator=(GeneratedModule&&) = default;
  ~GeneratedModule() { module.reset(); }
};

// No functions make a module with an empty manifest. Errors: duplicate names, what
// AnalyzeKernelArgs rejects, IR the code generator does not support (naming the function and node).
// A module that fails LLVM's verifier is an internal error (a code generator bug), reported with
// the verifier's message. `optimize` false skips the O3 pipeline (for inspecting what the code
// generator itself emits).
absl::StatusOr<GeneratedModule> GenerateModule(const std::vector<ir::PrimFunc>& funcs,
                                               llvm::TargetMachine& tm, bool optimize = true);

}  // namespace tunefarm::codegen
