#include "runtime/cuda/cuda_device.h"

#include <utility>

#include "absl/strings/str_cat.h"

namespace tunefarm::runtime::cuda {

DeviceBuffer::~DeviceBuffer() { Reset(); }

DeviceBuffer::DeviceBuffer(DeviceBuffer&& other) noexcept
    : device_(std::move(other.device_)),
      ptr_(std::exchange(other.ptr_, 0)),
      size_(std::exchange(other.size_, 0)) {}

DeviceBuffer& DeviceBuffer::operator=(DeviceBuffer&& other) noexcept {
  if (this != &other) {
    Reset();
    device_ = std::move(other.device_);
    ptr_ = std::exchange(other.ptr_, 0);
    size_ = std::exchange(other.size_, 0);
  }
  return *this;
}

void DeviceBuffer::Reset() {
  if (device_ != nullptr && ptr_ != 0 && device_->MakeCurrent().ok()) {
    // A failure here (a context already torn down by a crashed kernel) cannot be reported from
    // a destructor; the memory goes with the context.
    (void)device_->driver().MemFree(ptr_);
  }
  device_.reset();
  ptr_ = 0;
  size_ = 0;
}

absl::Status DeviceBuffer::CopyFromHost(const void* host, size_t num_bytes) {
  if (num_bytes > size_) {
    return absl::InvalidArgumentError(
        absl::StrCat("copy of ", num_bytes, " bytes into a device buffer of ", size_));
  }
  if (num_bytes == 0) return absl::OkStatus();
  if (absl::Status s = device_->MakeCurrent(); !s.ok()) return s;
  return device_->driver().Check(device_->driver().MemcpyHtoD(ptr_, host, num_bytes),
                                 "cuMemcpyHtoD");
}

absl::Status DeviceBuffer::CopyToHost(void* host, size_t num_bytes) const {
  if (num_bytes > size_) {
    return absl::InvalidArgumentError(
        absl::StrCat("copy of ", num_bytes, " bytes out of a device buffer of ", size_));
  }
  if (num_bytes == 0) return absl::OkStatus();
  if (absl::Status s = device_->MakeCurrent(); !s.ok()) return s;
  return device_->driver().Check(device_->driver().MemcpyDtoH(host, ptr_, num_bytes),
                                 "cuMemcpyDtoH");
}

absl::StatusOr<std::shared_ptr<CudaDevice>> CudaDevice::Open(int ordinal) {
  absl::StatusOr<CudaDriver*> driver = CudaDriver::Get();
  if (!driver.ok()) return driver.status();
  const CudaDriver& d = **driver;
  if (ordinal < 0 || ordinal >= d.device_count()) {
    return absl::InvalidArgumentError(absl::StrCat("CUDA device ", ordinal, " does not exist (",
                                                   d.device_count(), " device(s))"));
  }
  std::shared_ptr<CudaDevice> device(new CudaDevice());
  device->driver_ = *driver;
  device->ordinal_ = ordinal;
  if (absl::Status s = d.Check(d.DeviceGet(&device->device_, ordinal), "cuDeviceGet"); !s.ok()) {
    return s;
  }
  char name[256] = {};
  if (absl::Status s =
          d.Check(d.DeviceGetName(name, sizeof(name) - 1, device->device_), "cuDeviceGetName");
      !s.ok()) {
    return s;
  }
  device->name_ = name;
  int major = 0;
  int minor = 0;
  if (absl::Status s =
          d.Check(d.DeviceGetAttribute(&major, drv::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR,
                                       device->device_),
                  "cuDeviceGetAttribute");
      !s.ok()) {
    return s;
  }
  if (absl::Status s =
          d.Check(d.DeviceGetAttribute(&minor, drv::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR,
                                       device->device_),
                  "cuDeviceGetAttribute");
      !s.ok()) {
    return s;
  }
  device->arch_ = absl::StrCat("sm_", major, minor);
  drv::CUcontext context = nullptr;
  if (absl::Status s =
          d.Check(d.DevicePrimaryCtxRetain(&context, device->device_), "cuDevicePrimaryCtxRetain");
      !s.ok()) {
    return s;
  }
  device->context_ = context;
  if (absl::Status s = device->MakeCurrent(); !s.ok()) return s;
  return device;
}

CudaDevice::~CudaDevice() {
  if (context_ != nullptr) (void)driver_->DevicePrimaryCtxRelease(device_);
}

absl::Status CudaDevice::MakeCurrent() const {
  return driver_->Check(driver_->CtxSetCurrent(context_), "cuCtxSetCurrent");
}

absl::StatusOr<DeviceBuffer> CudaDevice::Allocate(size_t num_bytes) const {
  if (absl::Status s = MakeCurrent(); !s.ok()) return s;
  size_t size = num_bytes == 0 ? 1 : num_bytes;
  drv::CUdeviceptr ptr = 0;
  if (absl::Status s = driver_->Check(driver_->MemAlloc(&ptr, size),
                                      absl::StrCat("cuMemAlloc(", size, " bytes)"));
      !s.ok()) {
    return s;
  }
  DeviceBuffer buffer;
  buffer.device_ = shared_from_this();
  buffer.ptr_ = ptr;
  buffer.size_ = num_bytes;
  return buffer;
}

absl::Status CudaDevice::Synchronize() const {
  if (absl::Status s = MakeCurrent(); !s.ok()) return s;
  return driver_->Check(driver_->CtxSynchronize(), "cuCtxSynchronize");
}

}  // namespace tunefarm::runtime::cuda
