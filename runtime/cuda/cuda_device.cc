#include "runtime/cuda/cuda_device.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <map>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "dlpack/dlpack.h"

namespace tunefarm::runtime::cuda {
namespace {

// Kernels up to this much dynamic shared memory need no opt-in (cuFuncSetAttribute).
constexpr int64_t kDefaultSharedBytes = 48 * 1024;

class CudaCode final : public gpu::LoadedCode {
 public:
  CudaCode(std::shared_ptr<const CudaDevice> device, drv::CUmodule module)
      : device_(std::move(device)), module_(module) {}
  ~CudaCode() override {
    if (device_->MakeCurrent().ok()) (void)device_->driver().ModuleUnload(module_);
  }
  CudaCode(const CudaCode&) = delete;
  CudaCode& operator=(const CudaCode&) = delete;

  absl::StatusOr<void*> Kernel(std::string_view name) const override {
    drv::CUfunction kernel = nullptr;
    if (device_->driver().ModuleGetFunction(&kernel, module_, std::string(name).c_str()) !=
        drv::CUDA_SUCCESS) {
      return absl::NotFoundError(
          absl::StrCat("the PTX does not define kernel '", std::string(name), "'"));
    }
    return static_cast<void*>(kernel);
  }

 private:
  std::shared_ptr<const CudaDevice> device_;
  drv::CUmodule module_;
};

}  // namespace

int CudaDevice::dl_device_type() const { return kDLCUDA; }

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
  gpu::DeviceAttributes& a = device->attributes_;
  char name[256] = {};
  if (absl::Status s =
          d.Check(d.DeviceGetName(name, sizeof(name) - 1, device->device_), "cuDeviceGetName");
      !s.ok()) {
    return s;
  }
  a.name = name;
  a.vendor = "NVIDIA";
  auto attribute = [&](int which, int* value) {
    return d.Check(d.DeviceGetAttribute(value, which, device->device_), "cuDeviceGetAttribute");
  };
  int major = 0;
  int minor = 0;
  int value = 0;
  if (absl::Status s = attribute(drv::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, &major);
      !s.ok()) {
    return s;
  }
  if (absl::Status s = attribute(drv::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, &minor);
      !s.ok()) {
    return s;
  }
  a.arch = absl::StrCat("sm_", major, minor);
  a.fp16 = major * 10 + minor >= 53;
  if (attribute(drv::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, &value).ok()) {
    a.compute_units = value;
  }
  if (attribute(drv::CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, &value).ok()) {
    a.max_threads_per_block = value;
  }
  for (int dim = 0; dim < 3; ++dim) {
    if (attribute(drv::CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X + dim, &value).ok()) {
      a.max_block_dims[dim] = value;
    }
  }
  if (attribute(drv::CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK, &value).ok()) {
    a.max_shared_bytes = value;
  }
  size_t total = 0;
  if (d.DeviceTotalMem != nullptr && d.DeviceTotalMem(&total, device->device_) == 0) {
    a.global_memory_bytes = static_cast<int64_t>(total);
  }
  int version = 0;
  if (d.DriverGetVersion != nullptr && d.DriverGetVersion(&version) == 0) {
    a.driver_version = absl::StrCat(version / 1000, ".", version % 1000 / 10);
  }
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

absl::StatusOr<uint64_t> CudaDevice::AllocateHandle(size_t num_bytes) const {
  if (absl::Status s = MakeCurrent(); !s.ok()) return s;
  drv::CUdeviceptr ptr = 0;
  if (absl::Status s = driver_->Check(driver_->MemAlloc(&ptr, num_bytes),
                                      absl::StrCat("cuMemAlloc(", num_bytes, " bytes)"));
      !s.ok()) {
    return s;
  }
  return static_cast<uint64_t>(ptr);
}

void CudaDevice::FreeHandle(uint64_t handle) const {
  // A failure here (a context already torn down by a crashed kernel) cannot be reported from
  // a destructor; the memory goes with the context.
  if (MakeCurrent().ok()) (void)driver_->MemFree(handle);
}

absl::Status CudaDevice::CopyIn(uint64_t handle, size_t offset, const void* host,
                                size_t num_bytes) const {
  if (absl::Status s = MakeCurrent(); !s.ok()) return s;
  return driver_->Check(driver_->MemcpyHtoD(handle + offset, host, num_bytes), "cuMemcpyHtoD");
}

absl::Status CudaDevice::CopyOut(void* host, uint64_t handle, size_t offset,
                                 size_t num_bytes) const {
  if (absl::Status s = MakeCurrent(); !s.ok()) return s;
  return driver_->Check(driver_->MemcpyDtoH(host, handle + offset, num_bytes), "cuMemcpyDtoH");
}

absl::StatusOr<std::shared_ptr<gpu::LoadedCode>> CudaDevice::Load(
    const gpu::GpuModuleImage& image) const {
  if (image.api != gpu::GpuApi::kCuda) {
    return absl::FailedPreconditionError(absl::StrCat(
        "a ", gpu::GpuApiTitle(image.api), " module cannot be loaded on CUDA device ", name()));
  }
  if (absl::Status s = MakeCurrent(); !s.ok()) return s;
  std::string error_log(16 * 1024, '\0');
  int options[] = {drv::CU_JIT_ERROR_LOG_BUFFER, drv::CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void* values[] = {error_log.data(), reinterpret_cast<void*>(error_log.size())};
  drv::CUmodule module = nullptr;
  drv::CUresult r = driver_->ModuleLoadDataEx(&module, image.code.c_str(), 2, options, values);
  if (r != drv::CUDA_SUCCESS) {
    error_log.resize(std::strlen(error_log.c_str()));
    absl::Status s = driver_->Check(
        r, absl::StrCat("loading PTX for ", image.arch, " on ", name(), " (", arch(), ")"));
    return absl::Status(s.code(),
                        absl::StrCat(s.message(), error_log.empty() ? "" : ": ", error_log));
  }
  auto code = std::make_shared<CudaCode>(
      std::static_pointer_cast<const CudaDevice>(shared_from_this()), module);
  // The most dynamic shared memory any launch of a kernel asks for: the opt-in is per kernel.
  std::map<std::string, int64_t> shared_bytes;
  for (const gpu::GpuHostFunction& fn : image.functions) {
    for (const gpu::GpuLaunch& launch : fn.launches) {
      int64_t& most = shared_bytes[launch.kernel];
      most = std::max(most, launch.dynamic_shared_bytes);
    }
  }
  for (const auto& [kernel_name, bytes] : shared_bytes) {
    if (bytes <= kDefaultSharedBytes) continue;
    if (bytes > std::numeric_limits<int>::max()) {
      return absl::InvalidArgumentError(
          absl::StrCat("kernel '", kernel_name, "' asks for ", bytes, " bytes of shared memory"));
    }
    absl::StatusOr<void*> kernel = code->Kernel(kernel_name);
    if (!kernel.ok()) return kernel.status();
    if (absl::Status s = driver_->Check(
            driver_->FuncSetAttribute(static_cast<drv::CUfunction>(*kernel),
                                      drv::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                      static_cast<int>(bytes)),
            absl::StrCat("kernel '", kernel_name, "': allowing ", bytes,
                         " bytes of dynamic shared memory"));
        !s.ok()) {
      return s;
    }
  }
  return code;
}

absl::Status CudaDevice::Launch(void* kernel, const gpu::LaunchDims& dims,
                                absl::Span<const gpu::KernelArg> args) const {
  if (absl::Status s = CheckLaunchLimits(dims); !s.ok()) return s;
  // One 8-byte slot per parameter; the driver reads each at its parameter's size.
  std::vector<uint64_t> slots(args.size(), 0);
  std::vector<void*> params(args.size());
  for (size_t i = 0; i < args.size(); ++i) {
    const gpu::KernelArg& arg = args[i];
    if (arg.kind == gpu::KernelArg::Kind::kBuffer) {
      slots[i] = arg.handle + arg.offset;
    } else if (arg.kind == gpu::KernelArg::Kind::kInt32) {
      auto v32 = static_cast<int32_t>(arg.value);
      std::memcpy(&slots[i], &v32, sizeof(v32));
    } else {
      std::memcpy(&slots[i], &arg.value, sizeof(int64_t));
    }
    params[i] = &slots[i];
  }
  return driver_->Check(
      driver_->LaunchKernel(static_cast<drv::CUfunction>(kernel), dims.grid[0], dims.grid[1],
                            dims.grid[2], dims.block[0], dims.block[1], dims.block[2],
                            dims.dynamic_shared_bytes, nullptr, params.data(), nullptr),
      "cuLaunchKernel");
}

absl::Status CudaDevice::Synchronize() const {
  if (absl::Status s = MakeCurrent(); !s.ok()) return s;
  return driver_->Check(driver_->CtxSynchronize(), "cuCtxSynchronize");
}

absl::StatusOr<double> CudaDevice::TimeQueued(const std::function<absl::Status()>& enqueue) const {
  if (absl::Status s = MakeCurrent(); !s.ok()) return s;
  const CudaDriver& d = *driver_;
  // Two events bracket the launches; they are destroyed on every path out.
  drv::CUevent events[2] = {nullptr, nullptr};
  auto destroy = [&] {
    for (drv::CUevent& e : events) {
      if (e != nullptr) (void)d.EventDestroy(e);
      e = nullptr;
    }
  };
  auto fail = [&](absl::Status s) {
    destroy();
    return s;
  };
  for (drv::CUevent& e : events) {
    if (absl::Status s = d.Check(d.EventCreate(&e, 0), "cuEventCreate"); !s.ok()) return fail(s);
  }
  if (absl::Status s = d.Check(d.EventRecord(events[0], nullptr), "cuEventRecord"); !s.ok()) {
    return fail(s);
  }
  if (absl::Status s = enqueue(); !s.ok()) return fail(s);
  float ms = 0;
  absl::Status s = d.Check(d.EventRecord(events[1], nullptr), "cuEventRecord");
  if (s.ok()) s = d.Check(d.EventSynchronize(events[1]), "cuEventSynchronize");
  if (s.ok()) s = d.Check(d.EventElapsedTime(&ms, events[0], events[1]), "cuEventElapsedTime");
  destroy();
  if (!s.ok()) return s;
  return ms * 1e-3;
}

}  // namespace tunefarm::runtime::cuda
