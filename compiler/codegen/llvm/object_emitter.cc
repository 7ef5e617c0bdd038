#include "compiler/codegen/llvm/object_emitter.h"

#include <llvm/ADT/SmallVector.h>
#include <llvm/Analysis/TargetLibraryInfo.h>
#include <llvm/IR/LegacyPassManager.h>
#include <llvm/Support/SmallVectorMemoryBuffer.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/TargetParser/Triple.h>

#include "absl/strings/str_cat.h"

namespace tunefarm::codegen {

absl::StatusOr<std::unique_ptr<llvm::MemoryBuffer>> EmitObject(llvm::Module& module,
                                                               llvm::TargetMachine& tm) {
  llvm::SmallVector<char, 0> bytes;
  llvm::raw_svector_ostream out(bytes);
  // The code generator's pass pipeline is still the legacy pass manager in LLVM 19.
  llvm::legacy::PassManager pm;
  llvm::TargetLibraryInfoImpl tlii(llvm::Triple(module.getTargetTriple()));
  pm.add(new llvm::TargetLibraryInfoWrapperPass(tlii));
  if (tm.addPassesToEmitFile(pm, out, nullptr, llvm::CodeGenFileType::ObjectFile)) {
    return absl::InternalError(
        absl::StrCat("LLVM cannot emit object files for ", tm.getTargetTriple().str()));
  }
  pm.run(module);
  return std::make_unique<llvm::SmallVectorMemoryBuffer>(std::move(bytes),
                                                         module.getModuleIdentifier(), false);
}

}  // namespace tunefarm::codegen
