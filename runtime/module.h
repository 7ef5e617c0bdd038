// A loaded set of kernels: built in-process by the JIT or loaded from a shared library that
// tunefarm exported. Kernels are looked up by name; each carries its signature.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "runtime/packed_function.h"

namespace tunefarm::runtime {

class Module : public std::enable_shared_from_this<Module> {
 public:
  virtual ~Module() = default;
  // NotFound naming the kernel and listing the ones the module has.
  virtual absl::StatusOr<PackedFunction> GetFunction(std::string_view name) const = 0;
  virtual std::vector<std::string> FunctionNames() const = 0;
};

// dlopen()s a library written by export_library (compiler/codegen), reads its manifest and wires
// its parallel loops to this process's thread pool. Errors name the path and what is missing.
absl::StatusOr<std::shared_ptr<Module>> LoadModule(const std::string& path);

}  // namespace tunefarm::runtime
