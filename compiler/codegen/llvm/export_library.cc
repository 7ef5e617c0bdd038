// ExportLibrary: the same module as the JIT builds, emitted as an object file for any supported
// target and linked into a shared library in a private temporary directory.
#include <fstream>

#include "absl/strings/str_cat.h"
#include "compiler/codegen/llvm/build.h"
#include "compiler/codegen/llvm/codegen_module.h"
#include "compiler/codegen/llvm/linker.h"
#include "compiler/codegen/llvm/llvm_target_machine.h"
#include "compiler/codegen/llvm/object_emitter.h"
#include "compiler/codegen/llvm/temp_dir.h"

namespace tunefarm::codegen {

absl::Status ExportLibrary(const std::vector<ir::PrimFunc>& funcs, const Target& target,
                           const std::string& path) {
  absl::StatusOr<llvm::TargetMachine*> tm = ThreadTargetMachine(target);
  if (!tm.ok()) return tm.status();
  absl::StatusOr<GeneratedModule> generated = GenerateModule(funcs, **tm);
  if (!generated.ok()) return generated.status();
  absl::StatusOr<std::unique_ptr<llvm::MemoryBuffer>> object = EmitObject(*generated->module, **tm);
  if (!object.ok()) return object.status();
  absl::StatusOr<TempDir> dir = TempDir::Create("tunefarm-export");
  if (!dir.ok()) return dir.status();
  const std::string object_path = dir->path() + "/kernels.o";
  {
    std::ofstream out(object_path, std::ios::binary);
    out.write((*object)->getBufferStart(),
              static_cast<std::streamsize>((*object)->getBufferSize()));
    if (!out) return absl::UnavailableError(absl::StrCat("cannot write ", object_path));
  }
  return LinkSharedLibrary({object_path}, path, dir->path() + "/link.log");
}

}  // namespace tunefarm::codegen
