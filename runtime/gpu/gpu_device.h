// The one device API of the runtime (as TVM's DeviceAPI): memory, copies, loading device code,
// kernel launches, synchronisation, timers and the device's attributes, behind a small interface
// that CUDA (runtime/cuda) and OpenCL (runtime/opencl) implement, each loading its driver with
// dlopen. Everything above (GpuFunction, the graph executor, measurement) is written once on it.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "runtime/gpu/gpu_api.h"
#include "runtime/gpu/gpu_module.h"

namespace tunefarm::runtime::gpu {

class GpuDevice;

// What a device reports of itself: for the worker's registration, for the tracker's fit, and for
// pruning the knob spaces of GPU templates.
struct DeviceAttributes {
  std::string name;                   // "NVIDIA H100", "Mali-G610", "pthread-skylake-avx512-..."
  std::string vendor;                 // "NVIDIA", "ARM", "The pocl project"
  std::string driver_version;         // the driver's own version string
  std::string arch;                   // CUDA "sm_90"; OpenCL the device's OpenCL C version
  std::string extensions;             // OpenCL: space-separated ("cl_khr_fp16 ..."); CUDA: empty
  int compute_units = 0;              // SMs, or OpenCL compute units
  int64_t max_threads_per_block = 0;  // threads of one block / work-group
  std::array<int64_t, 3> max_block_dims = {0, 0, 0};  // per dimension
  int64_t max_shared_bytes = 0;  // shared (CUDA) / __local (OpenCL) memory per block
  int64_t global_memory_bytes = 0;
  // The alignment of a buffer view's offset the device accepts, in bytes (OpenCL sub-buffers).
  int64_t view_alignment_bytes = 1;
  bool fp16 = false;  // half arithmetic in kernels (cl_khr_fp16, sm_53+)

  bool HasExtension(std::string_view extension) const;
};

// Device memory, freed with the buffer. Move-only; keeps its device alive. `handle` is the
// driver's: a CUdeviceptr, or a cl_mem.
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  ~DeviceBuffer();
  DeviceBuffer(DeviceBuffer&& other) noexcept;
  DeviceBuffer& operator=(DeviceBuffer&& other) noexcept;
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

  uint64_t handle() const { return handle_; }
  size_t size() const { return size_; }

  // Copies `num_bytes` (at most size() - offset) from or to host memory, synchronously.
  absl::Status CopyFromHost(const void* host, size_t num_bytes, size_t offset = 0);
  absl::Status CopyToHost(void* host, size_t num_bytes, size_t offset = 0) const;

 private:
  friend class GpuDevice;
  void Reset();

  std::shared_ptr<const GpuDevice> device_;
  uint64_t handle_ = 0;
  size_t size_ = 0;
};

// One argument of a launch: a buffer (a handle and a byte offset into it; `size` bytes from
// there) or an integer.
struct KernelArg {
  enum class Kind { kBuffer, kInt32, kInt64 };
  Kind kind = Kind::kBuffer;
  uint64_t handle = 0;
  size_t offset = 0;
  size_t size = 0;
  int64_t value = 0;
};

struct LaunchDims {
  std::array<uint32_t, 3> grid = {1, 1, 1};   // blocks / work-groups per dimension
  std::array<uint32_t, 3> block = {1, 1, 1};  // threads / work-items per group
  uint32_t dynamic_shared_bytes = 0;          // CUDA only (OpenCL kernels declare __local)
};

// Device code loaded onto a device (a CUmodule, a built cl_program) and its kernels.
class LoadedCode {
 public:
  virtual ~LoadedCode() = default;
  // The driver's kernel handle (CUfunction, cl_kernel); NotFound naming a missing kernel.
  virtual absl::StatusOr<void*> Kernel(std::string_view name) const = 0;
};

class GpuDevice : public std::enable_shared_from_this<GpuDevice> {
 public:
  virtual ~GpuDevice() = default;
  GpuDevice(const GpuDevice&) = delete;
  GpuDevice& operator=(const GpuDevice&) = delete;

  virtual GpuApi api() const = 0;
  // The DLPack device of tensors that live on this device (kDLCUDA or kDLOpenCL, and its id).
  virtual int dl_device_type() const = 0;
  virtual int ordinal() const = 0;
  virtual const DeviceAttributes& attributes() const = 0;

  // At least one byte is allocated, so that a zero-sized tensor still has a valid buffer.
  absl::StatusOr<DeviceBuffer> Allocate(size_t num_bytes) const;

  // Compiles or loads `image`'s code on this device (the compiler's log goes into the error).
  // FailedPrecondition when the image is for another API.
  virtual absl::StatusOr<std::shared_ptr<LoadedCode>> Load(const GpuModuleImage& image) const = 0;
  // Queues one launch of `kernel` (from Load) on the device's queue; returns without waiting.
  // Errors name the driver's complaint; a launch over the device's limits is InvalidArgument
  // naming the limit, before the driver is asked.
  virtual absl::Status Launch(void* kernel, const LaunchDims& dims,
                              absl::Span<const KernelArg> args) const = 0;
  // Waits for everything queued.
  virtual absl::Status Synchronize() const = 0;
  // Runs `enqueue` (which queues launches) and returns the seconds the device spent from the
  // start of the first launch it queued to the end of the last (CUDA events around it, OpenCL
  // profiling events of the launches), waiting for them. Host time and program compilation are
  // not counted.
  virtual absl::StatusOr<double> TimeQueued(const std::function<absl::Status()>& enqueue) const = 0;

  // Checks a launch against attributes(): InvalidArgument "a work-group of 2048 threads is over
  // the device's limit of 1024 (max_threads_per_block)" and alike.
  absl::Status CheckLaunchLimits(const LaunchDims& dims) const;

 protected:
  GpuDevice() = default;
  // Driver-level memory, for DeviceBuffer.
  virtual absl::StatusOr<uint64_t> AllocateHandle(size_t num_bytes) const = 0;
  virtual void FreeHandle(uint64_t handle) const = 0;
  virtual absl::Status CopyIn(uint64_t handle, size_t offset, const void* host,
                              size_t num_bytes) const = 0;
  virtual absl::Status CopyOut(void* host, uint64_t handle, size_t offset,
                               size_t num_bytes) const = 0;

 private:
  friend class DeviceBuffer;
};

}  // namespace tunefarm::runtime::gpu
