// A GPU module loaded onto a device, and its host functions: each call checks the arguments
// like a CPU kernel call, copies the tensors to the device, makes the module's kernel launches
// (grid and block evaluated from the bound sizes) and copies the tensors back. Written once on
// the device API (gpu_device.h), so CUDA and OpenCL modules run through the same code.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "runtime/gpu/gpu_device.h"
#include "runtime/gpu/gpu_module.h"
#include "runtime/packed_function.h"
#include "runtime/time_evaluator.h"

namespace tunefarm::runtime::gpu {

class GpuFunction;
class GpuDeviceCall;

class GpuLoadedModule : public std::enable_shared_from_this<GpuLoadedModule> {
 public:
  // Loads the image's code on `device` (GpuDevice::Load) and looks up every kernel the host
  // functions launch (NotFound naming a missing one).
  static absl::StatusOr<std::shared_ptr<GpuLoadedModule>> Load(std::shared_ptr<GpuDevice> device,
                                                               GpuModuleImage image);
  GpuLoadedModule(const GpuLoadedModule&) = delete;
  GpuLoadedModule& operator=(const GpuLoadedModule&) = delete;

  // NotFound naming the function and listing the module's.
  absl::StatusOr<GpuFunction> GetFunction(std::string_view name) const;
  std::vector<std::string> FunctionNames() const;
  const GpuModuleImage& image() const { return image_; }
  const GpuDevice& device() const { return *device_; }

 private:
  friend class GpuFunction;
  GpuLoadedModule() = default;

  std::shared_ptr<GpuDevice> device_;
  GpuModuleImage image_;
  std::shared_ptr<LoadedCode> code_;
  std::map<std::string, void*> kernels_;
};

// A host function of a loaded module. Cheap to copy; keeps the module loaded.
class GpuFunction {
 public:
  const FunctionSignature& signature() const { return function_->signature; }

  // Checks `args` (host tensors and scalars) against the signature exactly like
  // PackedFunction::Call, copies every tensor to the device, runs the launches, synchronizes and
  // copies every tensor back. InvalidArgument for a bad argument, a launch size that is not
  // positive or one over the device's limits (naming the limit); Internal with the driver's
  // error for a failed launch.
  absl::Status Call(absl::Span<const PackedArg> args) const;

  // Like Call, but runs the launches `options.warmup` times untimed and then `options.repeat`
  // times `options.number` back to back, timed on the device (GpuDevice::TimeQueued: kernels
  // only, no copies or compilation); returns each repeat's mean seconds per call.
  // `min_repeat_ms` raises `number` as in TimeFunction and `cooldown_ms` pauses between repeats;
  // `flush_cache` is ignored. The tensors hold the last run's results afterwards.
  absl::StatusOr<std::vector<double>> Time(absl::Span<const PackedArg> args,
                                           const TimeEvaluatorOptions& options) const;

  // The launches of one call over tensors that live on the device: `args` as in Call, but each
  // tensor's `data` is a device buffer's handle (DeviceBuffer::handle()) and its `byte_offset` a
  // place in it, on this module's device. Checked and resolved once, so that running it copies
  // and allocates nothing (a graph executor's steps). Errors as Call's.
  absl::StatusOr<GpuDeviceCall> PrepareDeviceCall(absl::Span<const PackedArg> args) const;

 private:
  friend class GpuLoadedModule;
  friend class GpuDeviceCall;
  struct Prepared;
  GpuFunction(std::shared_ptr<const GpuLoadedModule> module, const GpuHostFunction* function)
      : module_(std::move(module)), function_(function) {}

  // `copy_to_device`: each tensor gets a device copy of its host data (Call, Time); else its data
  // already is a device buffer (PrepareDeviceCall).
  absl::Status Prepare(absl::Span<const PackedArg> args, bool copy_to_device, Prepared* out) const;
  absl::Status Launch(const Prepared& prepared) const;
  absl::Status CopyBack(const Prepared& prepared) const;

  std::shared_ptr<const GpuLoadedModule> module_;
  const GpuHostFunction* function_;
};

// One call prepared by GpuFunction::PrepareDeviceCall. Move-only; keeps the module loaded.
class GpuDeviceCall {
 public:
  GpuDeviceCall(GpuDeviceCall&&) noexcept;
  GpuDeviceCall& operator=(GpuDeviceCall&&) noexcept;
  ~GpuDeviceCall();

  // Queues the launches and returns (no synchronization): errors as GpuDevice::Launch's.
  absl::Status Launch() const;

 private:
  friend class GpuFunction;
  GpuDeviceCall(GpuFunction function, std::unique_ptr<GpuFunction::Prepared> prepared);

  GpuFunction function_;
  std::unique_ptr<GpuFunction::Prepared> prepared_;
};

}  // namespace tunefarm::runtime::gpu
