#include "compiler/codegen/llvm/llvm_target_machine.h"

#include <llvm/MC/TargetRegistry.h>
#include <llvm/Target/TargetOptions.h>
#include <mutex>
#include <string>
#include <unordered_map>

#include "absl/strings/str_cat.h"

// Only the two backends tunefarm targets are initialized (all of them would cost start-up time).
extern "C" {
void LLVMInitializeX86TargetInfo();
void LLVMInitializeX86Target();
void LLVMInitializeX86TargetMC();
void LLVMInitializeX86AsmPrinter();
void LLVMInitializeAArch64TargetInfo();
void LLVMInitializeAArch64Target();
void LLVMInitializeAArch64TargetMC();
void LLVMInitializeAArch64AsmPrinter();
}

namespace tunefarm::codegen {

void InitializeLlvmTargets() {
  static std::once_flag once;
  std::call_once(once, [] {
    LLVMInitializeX86TargetInfo();
    LLVMInitializeX86Target();
    LLVMInitializeX86TargetMC();
    LLVMInitializeX86AsmPrinter();
    LLVMInitializeAArch64TargetInfo();
    LLVMInitializeAArch64Target();
    LLVMInitializeAArch64TargetMC();
    LLVMInitializeAArch64AsmPrinter();
  });
}

absl::StatusOr<const llvm::Target*> LookupLlvmTarget(const std::string& triple) {
  InitializeLlvmTargets();
  std::string error;
  const llvm::Target* t = llvm::TargetRegistry::lookupTarget(triple, error);
  if (t == nullptr) {
    return absl::InvalidArgumentError(absl::StrCat("no LLVM backend for ", triple, ": ", error));
  }
  return t;
}

absl::StatusOr<std::unique_ptr<llvm::TargetMachine>> CreateTargetMachine(const LlvmTarget& target) {
  absl::StatusOr<const llvm::Target*> backend = LookupLlvmTarget(target.triple);
  if (!backend.ok()) return backend.status();
  llvm::TargetOptions options;
  std::unique_ptr<llvm::TargetMachine> tm((*backend)->createTargetMachine(
      target.triple, target.cpu, target.features, options, llvm::Reloc::PIC_, std::nullopt,
      llvm::CodeGenOptLevel::Aggressive));
  if (!tm) {
    return absl::InternalError(absl::StrCat("LLVM made no TargetMachine for ", target.ToString()));
  }
  return tm;
}

absl::StatusOr<llvm::TargetMachine*> ThreadTargetMachine(const LlvmTarget& target) {
  thread_local std::unordered_map<std::string, std::unique_ptr<llvm::TargetMachine>> cache;
  std::string key = target.ToString();
  auto it = cache.find(key);
  if (it != cache.end()) return it->second.get();
  absl::StatusOr<std::unique_ptr<llvm::TargetMachine>> tm = CreateTargetMachine(target);
  if (!tm.ok()) return tm.status();
  return cache.emplace(std::move(key), *std::move(tm)).first->second.get();
}

}  // namespace tunefarm::codegen
