// Lowered functions to machine code: in-process (ORC JIT) for local runs and measurement, or an
// exported shared library (object file linked with lld) for upload and deployment.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "compiler/codegen/llvm/llvm_target.h"
#include "compiler/ir/function.h"
#include "runtime/core/function_signature.h"
#include "runtime/module.h"

namespace tunefarm::codegen {

// The runtime signature of a lowered function: its buffers in order as tensors (constant or
// symbolic extents), then one integer argument per variable the body uses that no shape defines.
absl::StatusOr<runtime::FunctionSignature> SignatureOf(const ir::PrimFunc& func);

// Compiles `funcs` for a host target and returns a module whose kernels run in this process.
// Errors: a non-host target, IR the code generator does not support (naming the node).
absl::StatusOr<std::shared_ptr<runtime::Module>> BuildJit(const std::vector<ir::PrimFunc>& funcs,
                                                          const LlvmTarget& target);

// A read-only, exported data symbol of a library (a model's graph text and weights, c_abi.h).
struct DataSymbol {
  std::string name;
  std::string_view bytes;  // must outlive the export
  uint64_t alignment = 64;
};

// Writes a shared library for `target` (host or cross) at `path`, loadable by
// runtime::LoadModule on a machine of that architecture, with `data` exported beside the kernels.
absl::Status ExportLibrary(const std::vector<ir::PrimFunc>& funcs, const LlvmTarget& target,
                           const std::string& path, const std::vector<DataSymbol>& data = {});

}  // namespace tunefarm::codegen
