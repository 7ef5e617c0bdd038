// Private: machine code for a module as an ELF relocatable object, in memory. The JIT links it
// into the process; ExportLibrary links it into a shared library.
#pragma once

#include <llvm/IR/Module.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Target/TargetMachine.h>
#include <memory>

#include "absl/status/statusor.h"

namespace tunefarm::codegen {

absl::StatusOr<std::unique_ptr<llvm::MemoryBuffer>> EmitObject(llvm::Module& module,
                                                               llvm::TargetMachine& tm);

}  // namespace tunefarm::codegen
