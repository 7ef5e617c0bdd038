// A CUDA device through the driver API: its primary context, device memory and host<->device
// copies. Modules (PTX) are loaded onto it with CudaLoadedModule (cuda_function.h).
#pragma once

#include <cstddef>
#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "runtime/cuda/cuda_driver.h"

namespace tunefarm::runtime::cuda {

class CudaDevice;

// Device memory, freed with the buffer. Move-only; keeps its device (and context) alive.
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  ~DeviceBuffer();
  DeviceBuffer(DeviceBuffer&& other) noexcept;
  DeviceBuffer& operator=(DeviceBuffer&& other) noexcept;
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

  drv::CUdeviceptr ptr() const { return ptr_; }
  size_t size() const { return size_; }

  // Copies `size()` bytes from or to host memory (synchronous).
  absl::Status CopyFromHost(const void* host, size_t num_bytes);
  absl::Status CopyToHost(void* host, size_t num_bytes) const;

 private:
  friend class CudaDevice;
  void Reset();

  std::shared_ptr<const CudaDevice> device_;
  drv::CUdeviceptr ptr_ = 0;
  size_t size_ = 0;
};

class CudaDevice : public std::enable_shared_from_this<CudaDevice> {
 public:
  // Retains device `ordinal`'s primary context. Unavailable when there is no driver or GPU
  // (CudaDriver::Get's message); InvalidArgument for an ordinal out of range.
  static absl::StatusOr<std::shared_ptr<CudaDevice>> Open(int ordinal = 0);
  ~CudaDevice();
  CudaDevice(const CudaDevice&) = delete;
  CudaDevice& operator=(const CudaDevice&) = delete;

  const CudaDriver& driver() const { return *driver_; }
  int ordinal() const { return ordinal_; }
  const std::string& name() const { return name_; }
  // "sm_90" for compute capability 9.0.
  const std::string& arch() const { return arch_; }

  // Makes this device's context current on the calling thread (every driver call needs it).
  absl::Status MakeCurrent() const;
  // At least one byte is allocated, so a zero-sized tensor still has a valid pointer.
  absl::StatusOr<DeviceBuffer> Allocate(size_t num_bytes) const;
  absl::Status Synchronize() const;

 private:
  CudaDevice() = default;

  const CudaDriver* driver_ = nullptr;
  int ordinal_ = 0;
  drv::CUdevice device_ = 0;
  drv::CUcontext context_ = nullptr;
  std::string name_;
  std::string arch_;
};

}  // namespace tunefarm::runtime::cuda
