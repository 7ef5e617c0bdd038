// ExportLibrary: the same module as the JIT builds, emitted as an object file for any supported
// target and linked into a shared library in a private temporary directory.
#include <fstream>

#include "absl/strings/str_cat.h"
#include "compiler/codegen/llvm/build.h"
#include "compiler/codegen/llvm/codegen_module.h"
#include "compiler/codegen/llvm/data_object.h"
#include "compiler/codegen/llvm/linker.h"
#include "compiler/codegen/llvm/llvm_target_machine.h"
#include "compiler/codegen/llvm/object_emitter.h"
#include "compiler/codegen/llvm/temp_dir.h"

namespace tunefarm::codegen {

namespace {

absl::Status WriteFile(const std::string& path, const llvm::MemoryBuffer& bytes) {
  std::ofstream out(path, std::ios::binary);
  out.write(bytes.getBufferStart(), static_cast<std::streamsize>(bytes.getBufferSize()));
  out.close();
  if (!out) return absl::UnavailableError(absl::StrCat("cannot write ", path));
  return absl::OkStatus();
}

}  // namespace

absl::Status ExportLibrary(const std::vector<ir::PrimFunc>& funcs, const LlvmTarget& target,
                           const std::string& path, const std::vector<DataSymbol>& data) {
  absl::StatusOr<llvm::TargetMachine*> tm = ThreadTargetMachine(target);
  if (!tm.ok()) return tm.status();
  absl::StatusOr<GeneratedModule> generated = GenerateModule(funcs, **tm);
  if (!generated.ok()) return generated.status();
  absl::StatusOr<std::unique_ptr<llvm::MemoryBuffer>> object = EmitObject(*generated->module, **tm);
  if (!object.ok()) return object.status();
  absl::StatusOr<TempDir> dir = TempDir::Create("tunefarm-export");
  if (!dir.ok()) return dir.status();
  std::vector<std::string> objects = {dir->path() + "/kernels.o"};
  if (absl::Status s = WriteFile(objects[0], **object); !s.ok()) return s;
  if (!data.empty()) {
    absl::StatusOr<std::unique_ptr<llvm::MemoryBuffer>> data_object = EmitDataObject(data, **tm);
    if (!data_object.ok()) return data_object.status();
    objects.push_back(dir->path() + "/data.o");
    if (absl::Status s = WriteFile(objects[1], **data_object); !s.ok()) return s;
  }
  return LinkSharedLibrary(objects, path, dir->path() + "/link.log");
}

}  // namespace tunefarm::codegen
