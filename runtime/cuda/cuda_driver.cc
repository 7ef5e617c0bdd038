#include "runtime/cuda/cuda_driver.h"

#include <dlfcn.h>
#include <initializer_list>
#include <memory>
#include <string>

#include "absl/strings/str_cat.h"

namespace tunefarm::runtime::cuda {
namespace {

// Resolves the first of `names` the library has (newest version first).
template <typename Fn>
absl::Status Resolve(void* library, Fn* out, std::initializer_list<const char*> names) {
  for (const char* name : names) {
    if (void* sym = dlsym(library, name)) {
      *out = reinterpret_cast<Fn>(sym);
      return absl::OkStatus();
    }
  }
  return absl::UnavailableError(
      absl::StrCat("NVIDIA driver too old: libcuda.so.1 lacks ", *names.begin()));
}

}  // namespace

absl::StatusOr<CudaDriver*> CudaDriver::Get() {
  // Loaded once: dlopen and cuInit are slow, and a missing driver stays missing.
  static const absl::StatusOr<CudaDriver*> driver = Load();
  return driver;
}

absl::StatusOr<CudaDriver*> CudaDriver::Load() {
  void* library = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) {
    return absl::UnavailableError("no NVIDIA driver (libcuda.so.1 not found)");
  }
  // The library is never dlclose()d and a loaded driver never freed: the driver stays for the
  // process (unloading it at exit races with the driver's own teardown).
  std::unique_ptr<CudaDriver> d(new CudaDriver());
  d->library_ = library;
  absl::Status s;
  auto resolve = [&](auto* fn, std::initializer_list<const char*> names) {
    if (s.ok()) s = Resolve(library, fn, names);
  };
  resolve(&d->Init, {"cuInit"});
  resolve(&d->GetErrorName, {"cuGetErrorName"});
  resolve(&d->GetErrorString, {"cuGetErrorString"});
  resolve(&d->DeviceGetCount, {"cuDeviceGetCount"});
  resolve(&d->DeviceGet, {"cuDeviceGet"});
  resolve(&d->DeviceGetName, {"cuDeviceGetName"});
  resolve(&d->DeviceGetAttribute, {"cuDeviceGetAttribute"});
  resolve(&d->DevicePrimaryCtxRetain, {"cuDevicePrimaryCtxRetain"});
  resolve(&d->DevicePrimaryCtxRelease,
          {"cuDevicePrimaryCtxRelease_v2", "cuDevicePrimaryCtxRelease"});
  resolve(&d->CtxSetCurrent, {"cuCtxSetCurrent"});
  resolve(&d->CtxSynchronize, {"cuCtxSynchronize"});
  resolve(&d->DriverGetVersion, {"cuDriverGetVersion"});
  resolve(&d->DeviceTotalMem, {"cuDeviceTotalMem_v2"});
  resolve(&d->MemAlloc, {"cuMemAlloc_v2"});
  resolve(&d->MemFree, {"cuMemFree_v2"});
  resolve(&d->MemcpyHtoD, {"cuMemcpyHtoD_v2"});
  resolve(&d->MemcpyDtoH, {"cuMemcpyDtoH_v2"});
  resolve(&d->ModuleLoadDataEx, {"cuModuleLoadDataEx"});
  resolve(&d->ModuleUnload, {"cuModuleUnload"});
  resolve(&d->ModuleGetFunction, {"cuModuleGetFunction"});
  resolve(&d->FuncSetAttribute, {"cuFuncSetAttribute"});
  resolve(&d->LaunchKernel, {"cuLaunchKernel"});
  resolve(&d->EventCreate, {"cuEventCreate"});
  resolve(&d->EventDestroy, {"cuEventDestroy_v2", "cuEventDestroy"});
  resolve(&d->EventRecord, {"cuEventRecord"});
  resolve(&d->EventSynchronize, {"cuEventSynchronize"});
  resolve(&d->EventElapsedTime, {"cuEventElapsedTime_v2", "cuEventElapsedTime"});
  if (!s.ok()) return s;

  drv::CUresult init = d->Init(0);
  if (init != drv::CUDA_SUCCESS) {
    return absl::UnavailableError(
        absl::StrCat("no CUDA device (", d->Check(init, "cuInit").message(), ")"));
  }
  int count = 0;
  if (absl::Status c = d->Check(d->DeviceGetCount(&count), "cuDeviceGetCount"); !c.ok()) {
    return absl::UnavailableError(absl::StrCat("no CUDA device (", c.message(), ")"));
  }
  if (count <= 0) return absl::UnavailableError("no CUDA device");
  d->device_count_ = count;
  return d.release();
}

absl::Status CudaDriver::Check(drv::CUresult result, std::string_view what) const {
  if (result == drv::CUDA_SUCCESS) return absl::OkStatus();
  const char* name = nullptr;
  const char* text = nullptr;
  if (GetErrorName == nullptr || GetErrorName(result, &name) != drv::CUDA_SUCCESS) {
    name = nullptr;
  }
  if (GetErrorString == nullptr || GetErrorString(result, &text) != drv::CUDA_SUCCESS) {
    text = nullptr;
  }
  return absl::InternalError(absl::StrCat(std::string(what), ": ",
                                          name ? name : absl::StrCat("CUDA error ", result),
                                          text ? absl::StrCat(" (", text, ")") : ""));
}

}  // namespace tunefarm::runtime::cuda
