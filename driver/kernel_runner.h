// A lowered function ready to run on arrays: on the reference interpreter (`interp`), compiled for
// this machine by LLVM (`llvm ...`), or for this machine's GPU (`cuda ...`, `opencl ...`), so
// `tunefarm run` treats them the same way.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "compiler/ir/function.h"
#include "compiler/target/target.h"
#include "driver/bindings.h"
#include "runtime/core/function_signature.h"
#include "runtime/ndarray.h"
#include "runtime/packed_function.h"
#include "runtime/time_evaluator.h"

namespace tunefarm::driver {

class KernelRunner {
 public:
  virtual ~KernelRunner() = default;
  // `func` compiled for `target` (lowered for target.lowering()): a CPU target must be this host
  // (FailedPrecondition for a cross target); CUDA without a GPU is Unavailable.
  static absl::StatusOr<std::unique_ptr<KernelRunner>> Create(const ir::PrimFunc& func,
                                                              const target::Target& target);
  // `func` on the reference interpreter (lowered for LoweringTarget::kInterp).
  static absl::StatusOr<std::unique_ptr<KernelRunner>> Interpret(const ir::PrimFunc& func);

  // One array per tensor parameter, in order; integer parameters that no shape defines take their
  // values from `bindings` by name.
  virtual absl::Status Run(const std::vector<runtime::NDArray*>& arrays,
                           const Bindings& bindings) const = 0;
  // "interp", or the canonical LLVM target string.
  virtual std::string Describe() const = 0;
  // Whether the CPU thread pool runs it (a GPU kernel's width is its launch, not the pool's).
  virtual bool UsesThreadPool() const { return true; }

  // Each repeat's mean seconds per call under `options`: the host's clock around Run, except
  // where the device has a better clock (a GPU's events around its launches, without the copies).
  virtual absl::StatusOr<std::vector<double>> Time(
      const std::vector<runtime::NDArray*>& arrays, const Bindings& bindings,
      const runtime::TimeEvaluatorOptions& options) const;
};

// The call arguments of a compiled kernel: the arrays for its tensor parameters in order, and
// integer parameters from `bindings` by name (InvalidArgument naming one that has no value).
absl::StatusOr<std::vector<runtime::PackedArg>> PackArguments(
    const runtime::FunctionSignature& signature, const std::vector<runtime::NDArray*>& arrays,
    const Bindings& bindings);

// The GPU runner behind KernelRunner::Create for a `cuda` or `opencl` target
// (gpu_kernel_runner.cc): Unavailable "no opencl device present (...)" where the machine has none.
absl::StatusOr<std::unique_ptr<KernelRunner>> CreateGpuRunner(const ir::PrimFunc& func,
                                                              const target::Target& target);

}  // namespace tunefarm::driver
