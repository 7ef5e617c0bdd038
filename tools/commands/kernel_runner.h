// A lowered function ready to run on arrays: on the reference interpreter (`interp`) or compiled
// for this machine by LLVM (`llvm ...`), so `tunefarm run` treats both the same way.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "compiler/ir/function.h"
#include "runtime/ndarray.h"
#include "tools/commands/bindings.h"

namespace tunefarm::tools {

class KernelRunner {
 public:
  virtual ~KernelRunner() = default;
  // `target` is "interp" or an LLVM target string for this host. A bad target string is an
  // InvalidArgument error listing what is accepted; a cross target is FailedPrecondition.
  static absl::StatusOr<std::unique_ptr<KernelRunner>> Create(const ir::PrimFunc& func,
                                                              const std::string& target);

  // One array per tensor parameter, in order; integer parameters that no shape defines take their
  // values from `bindings` by name.
  virtual absl::Status Run(const std::vector<runtime::NDArray*>& arrays,
                           const Bindings& bindings) const = 0;
  // "interp", or the canonical LLVM target string.
  virtual std::string Describe() const = 0;
};

}  // namespace tunefarm::tools
