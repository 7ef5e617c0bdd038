// Opens a shared library exported by a tunefarm code generator: reads its manifest, points its
// parallel loops at this process's thread pool and finds each kernel. Part of runtime/core.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/core/c_abi.h"
#include "runtime/core/function_signature.h"

namespace tunefarm::runtime {

struct LoadedKernel {
  FunctionSignature signature;
  TFKernelFunc entry = nullptr;
};

// Why Open failed, for callers that map failures to their own error codes.
enum class LoadErrorKind {
  kNone,
  kFileNotFound,        // no file at the path
  kNotLoadable,         // dlopen() refused it (dlerror's text is in the message)
  kNotTunefarmLibrary,  // no __tf_manifest or __tf_parallel_launch symbol
  kBadManifest,         // the manifest does not parse
  kMissingKernel,       // the manifest names a kernel the library does not define
};

class LoadedLibrary {
 public:
  // Returns nullptr on failure and sets `*error` to one line naming the path and the problem.
  // A path without '/' names a file in the working directory, never one on the library path.
  static std::unique_ptr<LoadedLibrary> Open(const std::string& path, std::string* error,
                                             LoadErrorKind* kind = nullptr);

  // dlclose()s the library: no kernel from it may run afterwards.
  ~LoadedLibrary();
  LoadedLibrary(const LoadedLibrary&) = delete;
  LoadedLibrary& operator=(const LoadedLibrary&) = delete;

  const std::string& path() const { return path_; }
  const std::vector<LoadedKernel>& kernels() const { return kernels_; }
  // nullptr when the library has no kernel of that name.
  const LoadedKernel* Find(std::string_view name) const;
  // The address of a data symbol the library exports (e.g. TF_GRAPH_SYMBOL), or nullptr.
  const void* FindSymbol(const char* name) const;

 private:
  LoadedLibrary(std::string path, void* handle, std::vector<LoadedKernel> kernels);

  std::string path_;
  void* handle_;
  std::vector<LoadedKernel> kernels_;
};

}  // namespace tunefarm::runtime
