// Private: read-only data symbols (a model's graph text and weights) as an ELF relocatable object
// of their own, linked beside the kernels' object by ExportLibrary. Kept out of the kernels'
// module so that hundreds of megabytes of weights never pass through the optimizer.
#pragma once

#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Target/TargetMachine.h>
#include <memory>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler/codegen/llvm/build.h"

namespace tunefarm::codegen {

// Errors: no symbols, a name that is empty or repeated, an alignment that is not a power of two.
absl::StatusOr<std::unique_ptr<llvm::MemoryBuffer>> EmitDataObject(
    const std::vector<DataSymbol>& symbols, llvm::TargetMachine& tm);

}  // namespace tunefarm::codegen
