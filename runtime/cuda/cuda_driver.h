// The NVIDIA driver API, loaded at run time with dlopen("libcuda.so.1") (never linked, so every
// binary runs on machines without a GPU), with the few driver types declared here.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace tunefarm::runtime::cuda {

// Driver API types, ABI-compatible with cuda.h's (kept in our namespace so both can coexist).
namespace drv {
using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;  // NOLINT(runtime/int): the driver's own type
struct CUctx_st;
struct CUmod_st;
struct CUfunc_st;
struct CUevent_st;
struct CUstream_st;
using CUcontext = CUctx_st*;
using CUmodule = CUmod_st*;
using CUfunction = CUfunc_st*;
using CUevent = CUevent_st*;
using CUstream = CUstream_st*;

inline constexpr CUresult CUDA_SUCCESS = 0;
inline constexpr CUresult CUDA_ERROR_NO_DEVICE = 100;
inline constexpr int CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 1;
inline constexpr int CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X = 2;
inline constexpr int CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK = 8;
inline constexpr int CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16;
inline constexpr int CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75;
inline constexpr int CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76;
inline constexpr int CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8;
inline constexpr int CU_JIT_INFO_LOG_BUFFER = 3;
inline constexpr int CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES = 4;
inline constexpr int CU_JIT_ERROR_LOG_BUFFER = 5;
inline constexpr int CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6;
}  // namespace drv

// The loaded driver: one per process, never unloaded. Entry points are resolved by their
// current versioned names (cuMemAlloc_v2, ...), falling back to older names where a driver
// predates the version.
class CudaDriver {
 public:
  // The driver with cuInit done and at least one device. Unavailable "no NVIDIA driver
  // (libcuda.so.1 not found)" or "no CUDA device (...)" on machines without a GPU; the result is
  // computed once and cached.
  static absl::StatusOr<CudaDriver*> Get();

  // OK for CUDA_SUCCESS, else Internal "WHAT: CUDA_ERROR_NAME (description)".
  absl::Status Check(drv::CUresult result, std::string_view what) const;

  int device_count() const { return device_count_; }

  // Entry points: cuda.h's signatures with our types, named without the "cu" prefix so that
  // cuda.h's macros (cuMemAlloc -> cuMemAlloc_v2), where both headers meet, cannot rename them.
  drv::CUresult (*Init)(unsigned int) = nullptr;
  drv::CUresult (*GetErrorName)(drv::CUresult, const char**) = nullptr;
  drv::CUresult (*GetErrorString)(drv::CUresult, const char**) = nullptr;
  drv::CUresult (*DeviceGetCount)(int*) = nullptr;
  drv::CUresult (*DeviceGet)(drv::CUdevice*, int) = nullptr;
  drv::CUresult (*DeviceGetName)(char*, int, drv::CUdevice) = nullptr;
  drv::CUresult (*DeviceGetAttribute)(int*, int, drv::CUdevice) = nullptr;
  drv::CUresult (*DriverGetVersion)(int*) = nullptr;
  drv::CUresult (*DeviceTotalMem)(size_t*, drv::CUdevice) = nullptr;
  drv::CUresult (*DevicePrimaryCtxRetain)(drv::CUcontext*, drv::CUdevice) = nullptr;
  drv::CUresult (*DevicePrimaryCtxRelease)(drv::CUdevice) = nullptr;
  drv::CUresult (*CtxSetCurrent)(drv::CUcontext) = nullptr;
  drv::CUresult (*CtxSynchronize)() = nullptr;
  drv::CUresult (*MemAlloc)(drv::CUdeviceptr*, size_t) = nullptr;
  drv::CUresult (*MemFree)(drv::CUdeviceptr) = nullptr;
  drv::CUresult (*MemcpyHtoD)(drv::CUdeviceptr, const void*, size_t) = nullptr;
  drv::CUresult (*MemcpyDtoH)(void*, drv::CUdeviceptr, size_t) = nullptr;
  drv::CUresult (*ModuleLoadDataEx)(drv::CUmodule*, const void*, unsigned int, int*,
                                    void**) = nullptr;
  drv::CUresult (*ModuleUnload)(drv::CUmodule) = nullptr;
  drv::CUresult (*ModuleGetFunction)(drv::CUfunction*, drv::CUmodule, const char*) = nullptr;
  drv::CUresult (*FuncSetAttribute)(drv::CUfunction, int, int) = nullptr;
  drv::CUresult (*LaunchKernel)(drv::CUfunction, unsigned int, unsigned int, unsigned int,
                                unsigned int, unsigned int, unsigned int, unsigned int,
                                drv::CUstream, void**, void**) = nullptr;
  drv::CUresult (*EventCreate)(drv::CUevent*, unsigned int) = nullptr;
  drv::CUresult (*EventDestroy)(drv::CUevent) = nullptr;
  drv::CUresult (*EventRecord)(drv::CUevent, drv::CUstream) = nullptr;
  drv::CUresult (*EventSynchronize)(drv::CUevent) = nullptr;
  drv::CUresult (*EventElapsedTime)(float*, drv::CUevent, drv::CUevent) = nullptr;

 private:
  CudaDriver() = default;
  static absl::StatusOr<CudaDriver*> Load();

  void* library_ = nullptr;
  int device_count_ = 0;
};

}  // namespace tunefarm::runtime::cuda
