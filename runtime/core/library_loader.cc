#include "runtime/core/library_loader.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <dlfcn.h>
#include <elf.h>
#include <sys/stat.h>
#include <utility>

#include "runtime/core/elf_machine.h"

namespace tunefarm::runtime {
namespace {

std::string LastDlError() {
  const char* text = dlerror();
  return text != nullptr ? text : "unknown dlopen error";
}

// Why a file dlopen() refused may not load here, when its ELF header says so: dlopen() reports a
// library built for another architecture as "No such file or directory" for a file that exists.
std::string ForeignMachine(const std::string& path) {
  const std::string machine = ElfMachineOfFile(path);
  if (machine.empty() || machine == HostMachine()) return "";
  return "it was built for " + machine + " and this machine is " + HostMachine();
}

}  // namespace

LoadedLibrary::LoadedLibrary(std::string path, void* handle, std::vector<LoadedKernel> kernels)
    : path_(std::move(path)), handle_(handle), kernels_(std::move(kernels)) {}

LoadedLibrary::~LoadedLibrary() { dlclose(handle_); }

const LoadedKernel* LoadedLibrary::Find(std::string_view name) const {
  for (const LoadedKernel& k : kernels_) {
    if (k.signature.name == name) return &k;
  }
  return nullptr;
}

const void* LoadedLibrary::FindSymbol(const char* name) const { return dlsym(handle_, name); }

std::unique_ptr<LoadedLibrary> LoadedLibrary::Open(const std::string& path, std::string* error,
                                                   LoadErrorKind* kind) {
  auto fail = [&](LoadErrorKind why, const std::string& what) {
    *error = what;
    if (kind != nullptr) *kind = why;
    return nullptr;
  };
  if (kind != nullptr) *kind = LoadErrorKind::kNone;
  const std::string quoted = "'" + path + "'";
  struct stat info;
  if (stat(path.c_str(), &info) != 0) {
    int err = errno;
    return fail(err == ENOENT ? LoadErrorKind::kFileNotFound : LoadErrorKind::kNotLoadable,
                "cannot load " + quoted + ": " + std::strerror(err));
  }
  // dlopen() searches the library path for a bare name; the user meant the file they named.
  std::string open_path = path.find('/') == std::string::npos ? "./" + path : path;
  void* handle = dlopen(open_path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    const std::string dl_error = LastDlError();
    const std::string foreign = ForeignMachine(open_path);
    return fail(LoadErrorKind::kNotLoadable,
                "cannot load " + quoted + ": " + (foreign.empty() ? dl_error : foreign));
  }
  auto close_and_fail = [&](LoadErrorKind why, const std::string& what) {
    dlclose(handle);
    return fail(why, what);
  };
  const auto* manifest = static_cast<const char*>(dlsym(handle, TF_MANIFEST_SYMBOL));
  if (manifest == nullptr) {
    return close_and_fail(
        LoadErrorKind::kNotTunefarmLibrary,
        quoted + " is not a tunefarm library: it defines no " TF_MANIFEST_SYMBOL " symbol");
  }
  auto* launch = static_cast<TFParallelLaunchFunc*>(dlsym(handle, TF_PARALLEL_LAUNCH_SYMBOL));
  if (launch == nullptr) {
    return close_and_fail(LoadErrorKind::kNotTunefarmLibrary,
                          quoted + " is not a tunefarm library: it defines " TF_MANIFEST_SYMBOL
                                   " but no " TF_PARALLEL_LAUNCH_SYMBOL " symbol");
  }
  std::vector<FunctionSignature> signatures;
  std::string manifest_error;
  if (!ParseManifest(manifest, &signatures, &manifest_error)) {
    return close_and_fail(LoadErrorKind::kBadManifest, quoted + ": " + manifest_error);
  }
  std::vector<LoadedKernel> kernels;
  kernels.reserve(signatures.size());
  for (FunctionSignature& signature : signatures) {
    void* entry = dlsym(handle, signature.name.c_str());
    if (entry == nullptr) {
      return close_and_fail(LoadErrorKind::kMissingKernel,
                            quoted + ": the manifest names kernel '" + signature.name +
                                "', which the library does not define");
    }
    kernels.push_back(LoadedKernel{std::move(signature), reinterpret_cast<TFKernelFunc>(entry)});
  }
  *launch = &TFBackendParallelLaunch;
  // Modules built before the workspace pool lack these: their kernels call aligned_alloc and free.
  if (auto* alloc = static_cast<TFWorkspaceAllocFunc*>(dlsym(handle, TF_WORKSPACE_ALLOC_SYMBOL))) {
    *alloc = &TFBackendWorkspaceAlloc;
  }
  if (auto* release = static_cast<TFWorkspaceFreeFunc*>(dlsym(handle, TF_WORKSPACE_FREE_SYMBOL))) {
    *release = &TFBackendWorkspaceFree;
  }
  return std::unique_ptr<LoadedLibrary>(new LoadedLibrary(path, handle, std::move(kernels)));
}

}  // namespace tunefarm::runtime
