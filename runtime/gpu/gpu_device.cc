#include "runtime/gpu/gpu_device.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

namespace tunefarm::runtime::gpu {

bool DeviceAttributes::HasExtension(std::string_view extension) const {
  for (absl::string_view e : absl::StrSplit(extensions, ' ', absl::SkipEmpty())) {
    if (std::string_view(e.data(), e.size()) == extension) return true;
  }
  return false;
}

DeviceBuffer::~DeviceBuffer() { Reset(); }

DeviceBuffer::DeviceBuffer(DeviceBuffer&& other) noexcept
    : device_(std::move(other.device_)),
      handle_(std::exchange(other.handle_, 0)),
      size_(std::exchange(other.size_, 0)) {}

DeviceBuffer& DeviceBuffer::operator=(DeviceBuffer&& other) noexcept {
  if (this != &other) {
    Reset();
    device_ = std::move(other.device_);
    handle_ = std::exchange(other.handle_, 0);
    size_ = std::exchange(other.size_, 0);
  }
  return *this;
}

void DeviceBuffer::Reset() {
  if (device_ != nullptr && handle_ != 0) device_->FreeHandle(handle_);
  device_.reset();
  handle_ = 0;
  size_ = 0;
}

absl::Status DeviceBuffer::CopyFromHost(const void* host, size_t num_bytes, size_t offset) {
  if (offset > size_ || num_bytes > size_ - offset) {
    return absl::InvalidArgumentError(absl::StrCat("copy of ", num_bytes, " bytes at offset ",
                                                   offset, " into a device buffer of ", size_));
  }
  if (num_bytes == 0) return absl::OkStatus();
  return device_->CopyIn(handle_, offset, host, num_bytes);
}

absl::Status DeviceBuffer::CopyToHost(void* host, size_t num_bytes, size_t offset) const {
  if (offset > size_ || num_bytes > size_ - offset) {
    return absl::InvalidArgumentError(absl::StrCat("copy of ", num_bytes, " bytes at offset ",
                                                   offset, " out of a device buffer of ", size_));
  }
  if (num_bytes == 0) return absl::OkStatus();
  return device_->CopyOut(host, handle_, offset, num_bytes);
}

absl::StatusOr<DeviceBuffer> GpuDevice::Allocate(size_t num_bytes) const {
  absl::StatusOr<uint64_t> handle = AllocateHandle(num_bytes == 0 ? 1 : num_bytes);
  if (!handle.ok()) return handle.status();
  DeviceBuffer buffer;
  buffer.device_ = shared_from_this();
  buffer.handle_ = *handle;
  buffer.size_ = num_bytes;
  return buffer;
}

absl::Status GpuDevice::CheckLaunchLimits(const LaunchDims& dims) const {
  const DeviceAttributes& a = attributes();
  int64_t threads = 1;
  for (int d = 0; d < 3; ++d) {
    if (a.max_block_dims[d] > 0 && dims.block[d] > a.max_block_dims[d]) {
      return absl::InvalidArgumentError(absl::StrCat(
          "a work-group of ", dims.block[d], " threads in dimension ", std::string(1, "xyz"[d]),
          " is over the device's limit of ", a.max_block_dims[d], " (max_block_dims) on ", a.name));
    }
    threads *= dims.block[d];
  }
  if (a.max_threads_per_block > 0 && threads > a.max_threads_per_block) {
    return absl::InvalidArgumentError(
        absl::StrCat("a work-group of ", threads, " threads is over the device's limit of ",
                     a.max_threads_per_block, " (max_threads_per_block) on ", a.name));
  }
  return absl::OkStatus();
}

}  // namespace tunefarm::runtime::gpu
