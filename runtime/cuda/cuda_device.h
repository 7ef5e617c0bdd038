// A CUDA device through the driver API (GpuDevice's CUDA implementation): its primary context,
// device memory, PTX modules, launches on the default stream and event timers.
#pragma once

#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "runtime/cuda/cuda_driver.h"
#include "runtime/gpu/gpu_device.h"

namespace tunefarm::runtime::cuda {

class CudaDevice final : public gpu::GpuDevice {
 public:
  // Retains device `ordinal`'s primary context. Unavailable when there is no driver or GPU
  // (CudaDriver::Get's message); InvalidArgument for an ordinal out of range.
  static absl::StatusOr<std::shared_ptr<CudaDevice>> Open(int ordinal = 0);
  ~CudaDevice() override;

  gpu::GpuApi api() const override { return gpu::GpuApi::kCuda; }
  int dl_device_type() const override;
  int ordinal() const override { return ordinal_; }
  const gpu::DeviceAttributes& attributes() const override { return attributes_; }
  const CudaDriver& driver() const { return *driver_; }
  const std::string& name() const { return attributes_.name; }
  // "sm_90" for compute capability 9.0.
  const std::string& arch() const { return attributes_.arch; }

  // Makes this device's context current on the calling thread (every driver call needs it).
  absl::Status MakeCurrent() const;

  absl::StatusOr<std::shared_ptr<gpu::LoadedCode>> Load(
      const gpu::GpuModuleImage& image) const override;
  absl::Status Launch(void* kernel, const gpu::LaunchDims& dims,
                      absl::Span<const gpu::KernelArg> args) const override;
  absl::Status Synchronize() const override;
  absl::StatusOr<double> TimeQueued(const std::function<absl::Status()>& enqueue) const override;

 protected:
  absl::StatusOr<uint64_t> AllocateHandle(size_t num_bytes) const override;
  void FreeHandle(uint64_t handle) const override;
  absl::Status CopyIn(uint64_t handle, size_t offset, const void* host,
                      size_t num_bytes) const override;
  absl::Status CopyOut(void* host, uint64_t handle, size_t offset, size_t num_bytes) const override;

 private:
  CudaDevice() = default;

  const CudaDriver* driver_ = nullptr;
  int ordinal_ = 0;
  drv::CUdevice device_ = 0;
  drv::CUcontext context_ = nullptr;
  gpu::DeviceAttributes attributes_;
};

}  // namespace tunefarm::runtime::cuda
