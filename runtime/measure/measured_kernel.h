// The kernel a measure request names, whatever it was built for: a CPU function from a shared
// library (run in this process) or a host function of a GPU module (CUDA or OpenCL, run on this
// process's device of that API, runtime/devices). The measurer checks and times both the same way.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "runtime/core/function_signature.h"
#include "runtime/packed_function.h"
#include "runtime/time_evaluator.h"

namespace tunefarm::runtime::gpu {
class GpuFunction;
}

namespace tunefarm::runtime::measure {

class MeasuredKernel {
 public:
  // Loads `path`: a GPU module when the file starts with a module header, else a shared
  // library. `function` empty: the module's only function (InvalidArgument when it has several).
  // Errors name the file; a GPU module on a machine without its driver or device is Unavailable
  // with the driver's reason.
  static absl::StatusOr<MeasuredKernel> Load(const std::string& path, const std::string& function);

  MeasuredKernel(MeasuredKernel&&) noexcept;
  MeasuredKernel& operator=(MeasuredKernel&&) noexcept;
  ~MeasuredKernel();

  const FunctionSignature& signature() const;
  bool on_gpu() const { return gpu_ != nullptr; }

  // One checked call on host arrays (a GPU kernel's tensors go to the device and back).
  absl::Status Call(absl::Span<const PackedArg> args) const;

  // GPU only: each repeat's mean seconds per call, timed on the device around the launches
  // alone (CUDA events, OpenCL profiling events; no copies or program builds); `min_repeat_ms`
  // raises `number`. The arrays hold the last run's results.
  absl::StatusOr<std::vector<double>> TimeOnDevice(absl::Span<const PackedArg> args,
                                                   const TimeEvaluatorOptions& options) const;

 private:
  MeasuredKernel() = default;

  std::optional<PackedFunction> cpu_;
  std::unique_ptr<gpu::GpuFunction> gpu_;
};

// True when the file at `path` is a serialized GPU module (cheap: reads its first line).
bool IsGpuModuleFile(const std::string& path);

}  // namespace tunefarm::runtime::measure
