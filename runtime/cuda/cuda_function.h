// A CUDA module loaded onto a device, and its host functions: each call checks the arguments
// like a CPU kernel call, copies the tensors to the device, makes the module's kernel launches
// (grid and block evaluated from the bound sizes) and copies the tensors back.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "runtime/cuda/cuda_device.h"
#include "runtime/cuda/cuda_module.h"
#include "runtime/packed_function.h"
#include "runtime/time_evaluator.h"

namespace tunefarm::runtime::cuda {

class CudaFunction;
class CudaDeviceCall;

class CudaLoadedModule : public std::enable_shared_from_this<CudaLoadedModule> {
 public:
  // JIT-compiles the PTX on `device` (the driver's error log goes into the error) and looks up
  // every kernel the host functions launch (NotFound naming a missing one).
  static absl::StatusOr<std::shared_ptr<CudaLoadedModule>> Load(std::shared_ptr<CudaDevice> device,
                                                                CudaModuleImage image);
  ~CudaLoadedModule();
  CudaLoadedModule(const CudaLoadedModule&) = delete;
  CudaLoadedModule& operator=(const CudaLoadedModule&) = delete;

  // NotFound naming the function and listing the module's.
  absl::StatusOr<CudaFunction> GetFunction(std::string_view name) const;
  std::vector<std::string> FunctionNames() const;
  const CudaModuleImage& image() const { return image_; }
  const CudaDevice& device() const { return *device_; }

 private:
  friend class CudaFunction;
  CudaLoadedModule() = default;

  std::shared_ptr<CudaDevice> device_;
  CudaModuleImage image_;
  drv::CUmodule module_ = nullptr;
  std::map<std::string, drv::CUfunction> kernels_;
};

// A host function of a loaded module. Cheap to copy; keeps the module loaded.
class CudaFunction {
 public:
  const FunctionSignature& signature() const { return function_->signature; }

  // Checks `args` (host tensors and scalars) against the signature exactly like
  // PackedFunction::Call, copies every tensor to the device, runs the launches, synchronizes and
  // copies every tensor back. InvalidArgument for a bad argument or a launch size that is not
  // positive; Internal with the driver's error for a failed launch.
  absl::Status Call(absl::Span<const PackedArg> args) const;

  // Like Call, but runs the launches `options.warmup` times untimed and then `options.repeat`
  // times `options.number` back to back, timed with CUDA events (kernels only, no copies);
  // returns each repeat's mean seconds per call. `min_repeat_ms` raises `number` as in
  // TimeFunction and `cooldown_ms` pauses between repeats; `flush_cache` is ignored. The tensors
  // hold the last run's results afterwards.
  absl::StatusOr<std::vector<double>> Time(absl::Span<const PackedArg> args,
                                           const TimeEvaluatorOptions& options) const;

  // The launches of one call over tensors that live on the device: `args` as in Call, but each
  // tensor's `data` is a device pointer (DeviceBuffer::ptr(), offsets included) used as it is.
  // Checked and resolved once, so that running it copies and allocates nothing (a graph
  // executor's steps). Errors as Call's.
  absl::StatusOr<CudaDeviceCall> PrepareDeviceCall(absl::Span<const PackedArg> args) const;

 private:
  friend class CudaLoadedModule;
  friend class CudaDeviceCall;
  struct Prepared;
  CudaFunction(std::shared_ptr<const CudaLoadedModule> module, const CudaHostFunction* function)
      : module_(std::move(module)), function_(function) {}

  // `copy_to_device`: each tensor gets a device copy of its host data (Call, Time); else its data
  // already is a device pointer (PrepareDeviceCall).
  absl::Status Prepare(absl::Span<const PackedArg> args, bool copy_to_device, Prepared* out) const;
  absl::Status Launch(const Prepared& prepared) const;
  absl::Status CopyBack(const Prepared& prepared) const;

  std::shared_ptr<const CudaLoadedModule> module_;
  const CudaHostFunction* function_;
};

// One call prepared by CudaFunction::PrepareDeviceCall. Move-only; keeps the module loaded.
class CudaDeviceCall {
 public:
  CudaDeviceCall(CudaDeviceCall&&) noexcept;
  CudaDeviceCall& operator=(CudaDeviceCall&&) noexcept;
  ~CudaDeviceCall();

  // Queues the launches on the default stream and returns (no synchronization): Internal with the
  // driver's error for a launch the driver refuses.
  absl::Status Launch() const;

 private:
  friend class CudaFunction;
  CudaDeviceCall(CudaFunction function, std::unique_ptr<CudaFunction::Prepared> prepared);

  CudaFunction function_;
  std::unique_ptr<CudaFunction::Prepared> prepared_;
};

}  // namespace tunefarm::runtime::cuda
