#include "runtime/module.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "runtime/core/library_loader.h"

namespace tunefarm::runtime {
namespace {

// Kernels from a dlopen()ed library. Every PackedFunction it hands out shares ownership of the
// module, so the library stays loaded until the module and all its functions are gone.
class SharedLibraryModule final : public Module {
 public:
  explicit SharedLibraryModule(std::unique_ptr<LoadedLibrary> library)
      : library_(std::move(library)) {}

  absl::StatusOr<PackedFunction> GetFunction(std::string_view name) const override {
    const LoadedKernel* kernel = library_->Find(name);
    if (kernel == nullptr) {
      std::vector<std::string> names = FunctionNames();
      return absl::NotFoundError(
          absl::StrCat("module '", library_->path(), "' has no kernel '", std::string(name),
                       "'; it has: ", names.empty() ? "none" : absl::StrJoin(names, ", ")));
    }
    return PackedFunction(kernel->signature, kernel->entry, shared_from_this());
  }

  std::vector<std::string> FunctionNames() const override {
    std::vector<std::string> names;
    for (const LoadedKernel& k : library_->kernels()) names.push_back(k.signature.name);
    return names;
  }

 private:
  std::unique_ptr<LoadedLibrary> library_;
};

}  // namespace

absl::StatusOr<std::shared_ptr<Module>> LoadModule(const std::string& path) {
  std::string error;
  LoadErrorKind kind = LoadErrorKind::kNone;
  std::unique_ptr<LoadedLibrary> library = LoadedLibrary::Open(path, &error, &kind);
  if (library == nullptr) {
    if (kind == LoadErrorKind::kFileNotFound) return absl::NotFoundError(error);
    return absl::InvalidArgumentError(error);
  }
  return std::make_shared<SharedLibraryModule>(std::move(library));
}

}  // namespace tunefarm::runtime
