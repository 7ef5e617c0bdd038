// Private: LLVM target registration and TargetMachines for a parsed Target, shared by the JIT,
// object emission and target parsing. Includes LLVM; only compiler/codegen/llvm sources see it.
#pragma once

#include <llvm/MC/MCSubtargetInfo.h>
#include <llvm/Target/TargetMachine.h>
#include <memory>

#include "absl/status/statusor.h"
#include "compiler/codegen/llvm/llvm_target.h"

namespace tunefarm::codegen {

// Registers the X86 and AArch64 backends once per process; cheap after the first call.
void InitializeLlvmTargets();

// The LLVM backend for `triple`, or an error naming the triple.
absl::StatusOr<const llvm::Target*> LookupLlvmTarget(const std::string& triple);

// A fresh TargetMachine: position-independent code (shared libraries and JITLink both take it),
// optimization level aggressive.
absl::StatusOr<std::unique_ptr<llvm::TargetMachine>> CreateTargetMachine(const LlvmTarget& target);

// A TargetMachine owned by the calling thread, reused across builds for the same target (making
// one costs about a millisecond; a TargetMachine must not be used by two threads at once).
absl::StatusOr<llvm::TargetMachine*> ThreadTargetMachine(const LlvmTarget& target);

}  // namespace tunefarm::codegen
