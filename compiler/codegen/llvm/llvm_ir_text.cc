#include "compiler/codegen/llvm/llvm_ir_text.h"

#include <llvm/Support/raw_ostream.h>

#include "compiler/codegen/llvm/codegen_module.h"
#include "compiler/codegen/llvm/llvm_target_machine.h"

namespace tunefarm::codegen {

absl::StatusOr<std::string> LlvmIrText(const std::vector<ir::PrimFunc>& funcs,
                                       const LlvmTarget& target, bool optimized) {
  absl::StatusOr<llvm::TargetMachine*> tm = ThreadTargetMachine(target);
  if (!tm.ok()) return tm.status();
  absl::StatusOr<GeneratedModule> generated = GenerateModule(funcs, **tm, optimized);
  if (!generated.ok()) return generated.status();
  std::string text;
  llvm::raw_string_ostream os(text);
  generated->module->print(os, nullptr);
  return text;
}

}  // namespace tunefarm::codegen
