// An OpenCL device (GpuDevice's OpenCL implementation): a context and an in-order profiling
// queue on one device of one platform, buffers, programs built from OpenCL C by the device's own
// compiler (cached per device and source, so that timing never includes compilation), launches
// as NDRanges and profiling-event timers.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "runtime/gpu/gpu_device.h"
#include "runtime/opencl/opencl_driver.h"
#include "runtime/opencl/program_binary_cache.h"

namespace tunefarm::runtime::opencl {

// One OpenCL device as `tunefarm worker --device opencl:P:D` names it, with what clinfo says of
// it; for listing and choosing.
struct OpenClDeviceInfo {
  int platform = 0;
  int device = 0;
  std::string platform_name;
  gpu::DeviceAttributes attributes;
};

// Every device of every platform. Unavailable when there is no loader or platform.
absl::StatusOr<std::vector<OpenClDeviceInfo>> ListOpenClDevices();

class OpenClDevice final : public gpu::GpuDevice {
 public:
  // Device `device` of platform `platform` (indices as ListOpenClDevices gives them), keeping
  // the program binaries its compiler makes in `binary_cache_dir` ("" for none).
  // Unavailable without a loader or platform; InvalidArgument for indices out of range.
  static absl::StatusOr<std::shared_ptr<OpenClDevice>> Open(
      int platform = 0, int device = 0,
      const std::string& binary_cache_dir = ProgramBinaryCache::DefaultDir());
  ~OpenClDevice() override;

  gpu::GpuApi api() const override { return gpu::GpuApi::kOpenCl; }
  int dl_device_type() const override;
  // The index among all OpenCL devices of all platforms, in ListOpenClDevices' order.
  int ordinal() const override { return ordinal_; }
  const gpu::DeviceAttributes& attributes() const override { return attributes_; }
  int platform_index() const { return platform_index_; }
  int device_index() const { return device_index_; }

  absl::StatusOr<std::shared_ptr<gpu::LoadedCode>> Load(
      const gpu::GpuModuleImage& image) const override;
  absl::Status Launch(void* kernel, const gpu::LaunchDims& dims,
                      absl::Span<const gpu::KernelArg> args) const override;
  absl::Status Synchronize() const override;
  absl::StatusOr<double> TimeQueued(const std::function<absl::Status()>& enqueue) const override;

  // Builds `source` with the device's compiler (the build log in the error, with the source's
  // lines it names). Programs are kept per source for the device's lifetime, and their binaries
  // on disk (ProgramBinaryCache), which a later process loads instead of compiling again.
  absl::StatusOr<cl_program> BuildProgram(const std::string& source) const;
  // Programs this handle loaded from the binary cache rather than compiled.
  int64_t programs_from_binary_cache() const;

 protected:
  absl::StatusOr<uint64_t> AllocateHandle(size_t num_bytes) const override;
  void FreeHandle(uint64_t handle) const override;
  absl::Status CopyIn(uint64_t handle, size_t offset, const void* host,
                      size_t num_bytes) const override;
  absl::Status CopyOut(void* host, uint64_t handle, size_t offset, size_t num_bytes) const override;

 private:
  OpenClDevice() = default;

  const OpenClDriver* driver_ = nullptr;
  int platform_index_ = 0;
  int device_index_ = 0;
  int ordinal_ = 0;
  cl_device_id device_ = nullptr;
  cl_context context_ = nullptr;
  cl_command_queue queue_ = nullptr;
  gpu::DeviceAttributes attributes_;

  // Serialises the queue and kernel arguments: clSetKernelArg on one kernel is not thread-safe.
  mutable std::mutex mu_;
  mutable std::map<std::string, cl_program> programs_;  // by source
  std::unique_ptr<ProgramBinaryCache> binary_cache_;
  mutable int64_t programs_from_binary_cache_ = 0;
  // While TimeQueued runs: the first and the last launch's events.
  mutable bool capturing_ = false;
  mutable cl_event first_event_ = nullptr;
  mutable cl_event last_event_ = nullptr;
  // One TimeQueued at a time.
  mutable std::mutex timing_mu_;
};

}  // namespace tunefarm::runtime::opencl
