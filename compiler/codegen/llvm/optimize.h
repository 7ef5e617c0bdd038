// Private: the O3 pipeline over a generated module, built with the TargetMachine so that the
// vectorizer and unroller cost instructions for the actual CPU.
#pragma once

#include <llvm/IR/Module.h>
#include <llvm/Target/TargetMachine.h>

namespace tunefarm::codegen {

void OptimizeModule(llvm::Module& module, llvm::TargetMachine& tm);

}  // namespace tunefarm::codegen
