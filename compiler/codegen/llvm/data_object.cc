#include "compiler/codegen/llvm/data_object.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <set>
#include <string>

#include "absl/strings/str_cat.h"
#include "compiler/codegen/llvm/object_emitter.h"

namespace tunefarm::codegen {

absl::StatusOr<std::unique_ptr<llvm::MemoryBuffer>> EmitDataObject(
    const std::vector<DataSymbol>& symbols, llvm::TargetMachine& tm) {
  if (symbols.empty()) return absl::InvalidArgumentError("a data object needs at least a symbol");
  llvm::LLVMContext context;
  llvm::Module module("tunefarm_data", context);
  module.setTargetTriple(tm.getTargetTriple().str());
  module.setDataLayout(tm.createDataLayout());
  std::set<std::string> names;
  for (const DataSymbol& symbol : symbols) {
    if (symbol.name.empty() || !names.insert(symbol.name).second) {
      return absl::InvalidArgumentError(
          absl::StrCat("data symbol names must be unique and non-empty: '", symbol.name, "'"));
    }
    if (symbol.alignment == 0 || (symbol.alignment & (symbol.alignment - 1)) != 0) {
      return absl::InvalidArgumentError(absl::StrCat("data symbol '", symbol.name, "': alignment ",
                                                     symbol.alignment, " is not a power of two"));
    }
    // getRaw keeps the bytes as one blob (no per-element constants): weights of hundreds of
    // megabytes cost one copy here and one in the object.
    llvm::Constant* init =
        llvm::ConstantDataArray::getRaw(llvm::StringRef(symbol.bytes.data(), symbol.bytes.size()),
                                        symbol.bytes.size(), llvm::Type::getInt8Ty(context));
    auto* global = new llvm::GlobalVariable(module, init->getType(), /*isConstant=*/true,
                                            llvm::GlobalValue::ExternalLinkage, init, symbol.name);
    global->setAlignment(llvm::Align(symbol.alignment));
    global->setVisibility(llvm::GlobalValue::DefaultVisibility);
  }
  return EmitObject(module, tm);
}

}  // namespace tunefarm::codegen
