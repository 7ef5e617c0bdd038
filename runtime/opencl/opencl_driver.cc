#include "runtime/opencl/opencl_driver.h"

#include <dlfcn.h>
#include <memory>
#include <type_traits>

#include "absl/strings/str_cat.h"

namespace tunefarm::runtime::opencl {

absl::StatusOr<const OpenClDriver*> OpenClDriver::Get() {
  // Loaded once: a missing loader or platform stays missing for the process.
  static const absl::StatusOr<const OpenClDriver*> driver = Load();
  return driver;
}

absl::StatusOr<const OpenClDriver*> OpenClDriver::Load() {
#if defined(__SANITIZE_THREAD__)
  // PoCL (and LLVM inside it) reserve address space where ThreadSanitizer keeps its shadow, and
  // the process dies at the first kernel ("ThreadSanitizer failed to allocate ..."): a TSan build
  // says OpenCL is unavailable, and the OpenCL paths are checked under ASan instead.
  return absl::UnavailableError(
      "OpenCL is off in ThreadSanitizer builds (PoCL's address-space reservations collide with "
      "TSan's shadow memory)");
#endif
  void* library = dlopen("libOpenCL.so.1", RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) library = dlopen("libOpenCL.so", RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) {
    return absl::UnavailableError("no OpenCL loader (libOpenCL.so.1 not found)");
  }
  // Never dlclose()d: ICDs keep threads and state for the life of the process.
  std::unique_ptr<OpenClDriver> d(new OpenClDriver());
  absl::Status s;
  auto resolve = [&](auto* fn, const char* name) {
    if (!s.ok()) return;
    void* sym = dlsym(library, name);
    if (sym == nullptr) {
      s = absl::UnavailableError(absl::StrCat("OpenCL loader too old: it lacks ", name));
      return;
    }
    *fn = reinterpret_cast<std::remove_pointer_t<decltype(fn)>>(sym);
  };
  resolve(&d->GetPlatformIDs, "clGetPlatformIDs");
  resolve(&d->GetPlatformInfo, "clGetPlatformInfo");
  resolve(&d->GetDeviceIDs, "clGetDeviceIDs");
  resolve(&d->GetDeviceInfo, "clGetDeviceInfo");
  resolve(&d->CreateContext, "clCreateContext");
  resolve(&d->ReleaseContext, "clReleaseContext");
  resolve(&d->CreateCommandQueue, "clCreateCommandQueue");
  resolve(&d->ReleaseCommandQueue, "clReleaseCommandQueue");
  resolve(&d->CreateBuffer, "clCreateBuffer");
  resolve(&d->CreateSubBuffer, "clCreateSubBuffer");
  resolve(&d->ReleaseMemObject, "clReleaseMemObject");
  resolve(&d->EnqueueWriteBuffer, "clEnqueueWriteBuffer");
  resolve(&d->EnqueueReadBuffer, "clEnqueueReadBuffer");
  resolve(&d->CreateProgramWithSource, "clCreateProgramWithSource");
  resolve(&d->CreateProgramWithBinary, "clCreateProgramWithBinary");
  resolve(&d->BuildProgram, "clBuildProgram");
  resolve(&d->GetProgramBuildInfo, "clGetProgramBuildInfo");
  resolve(&d->GetProgramInfo, "clGetProgramInfo");
  resolve(&d->ReleaseProgram, "clReleaseProgram");
  resolve(&d->CreateKernel, "clCreateKernel");
  resolve(&d->ReleaseKernel, "clReleaseKernel");
  resolve(&d->SetKernelArg, "clSetKernelArg");
  resolve(&d->GetKernelWorkGroupInfo, "clGetKernelWorkGroupInfo");
  resolve(&d->EnqueueNDRangeKernel, "clEnqueueNDRangeKernel");
  resolve(&d->Finish, "clFinish");
  resolve(&d->WaitForEvents, "clWaitForEvents");
  resolve(&d->GetEventProfilingInfo, "clGetEventProfilingInfo");
  resolve(&d->ReleaseEvent, "clReleaseEvent");
  if (!s.ok()) return s;
  cl_uint platforms = 0;
  cl_int r = d->GetPlatformIDs(0, nullptr, &platforms);
  if (r != CL_SUCCESS || platforms == 0) {
    // ocl-icd answers CL_PLATFORM_NOT_FOUND_KHR (-1001) when no ICD is installed.
    return absl::UnavailableError(
        absl::StrCat("no OpenCL platform (clGetPlatformIDs: ", ErrorName(r),
                     "; install an ICD such as "
                     "pocl-opencl-icd, or the GPU vendor's)"));
  }
  return d.release();
}

absl::Status OpenClDriver::Check(cl_int result, std::string_view what) {
  if (result == CL_SUCCESS) return absl::OkStatus();
  return absl::InternalError(
      absl::StrCat(std::string(what), ": ", ErrorName(result), " (", result, ")"));
}

const char* OpenClDriver::ErrorName(cl_int result) {
  switch (result) {
    case CL_SUCCESS:
      return "CL_SUCCESS";
    case CL_DEVICE_NOT_FOUND:
      return "CL_DEVICE_NOT_FOUND";
    case CL_DEVICE_NOT_AVAILABLE:
      return "CL_DEVICE_NOT_AVAILABLE";
    case CL_COMPILER_NOT_AVAILABLE:
      return "CL_COMPILER_NOT_AVAILABLE";
    case CL_MEM_OBJECT_ALLOCATION_FAILURE:
      return "CL_MEM_OBJECT_ALLOCATION_FAILURE";
    case CL_OUT_OF_RESOURCES:
      return "CL_OUT_OF_RESOURCES";
    case CL_OUT_OF_HOST_MEMORY:
      return "CL_OUT_OF_HOST_MEMORY";
    case CL_PROFILING_INFO_NOT_AVAILABLE:
      return "CL_PROFILING_INFO_NOT_AVAILABLE";
    case CL_BUILD_PROGRAM_FAILURE:
      return "CL_BUILD_PROGRAM_FAILURE";
    case CL_MISALIGNED_SUB_BUFFER_OFFSET:
      return "CL_MISALIGNED_SUB_BUFFER_OFFSET";
    case CL_INVALID_VALUE:
      return "CL_INVALID_VALUE";
    case CL_INVALID_DEVICE:
      return "CL_INVALID_DEVICE";
    case CL_INVALID_CONTEXT:
      return "CL_INVALID_CONTEXT";
    case CL_INVALID_COMMAND_QUEUE:
      return "CL_INVALID_COMMAND_QUEUE";
    case CL_INVALID_MEM_OBJECT:
      return "CL_INVALID_MEM_OBJECT";
    case CL_INVALID_BINARY:
      return "CL_INVALID_BINARY";
    case CL_INVALID_BUILD_OPTIONS:
      return "CL_INVALID_BUILD_OPTIONS";
    case CL_INVALID_PROGRAM:
      return "CL_INVALID_PROGRAM";
    case CL_INVALID_PROGRAM_EXECUTABLE:
      return "CL_INVALID_PROGRAM_EXECUTABLE";
    case CL_INVALID_KERNEL_NAME:
      return "CL_INVALID_KERNEL_NAME";
    case CL_INVALID_KERNEL:
      return "CL_INVALID_KERNEL";
    case CL_INVALID_ARG_INDEX:
      return "CL_INVALID_ARG_INDEX";
    case CL_INVALID_ARG_VALUE:
      return "CL_INVALID_ARG_VALUE";
    case CL_INVALID_ARG_SIZE:
      return "CL_INVALID_ARG_SIZE";
    case CL_INVALID_KERNEL_ARGS:
      return "CL_INVALID_KERNEL_ARGS";
    case CL_INVALID_WORK_DIMENSION:
      return "CL_INVALID_WORK_DIMENSION";
    case CL_INVALID_WORK_GROUP_SIZE:
      return "CL_INVALID_WORK_GROUP_SIZE";
    case CL_INVALID_WORK_ITEM_SIZE:
      return "CL_INVALID_WORK_ITEM_SIZE";
    case CL_INVALID_GLOBAL_WORK_SIZE:
      return "CL_INVALID_GLOBAL_WORK_SIZE";
    case CL_INVALID_EVENT:
      return "CL_INVALID_EVENT";
    case CL_INVALID_BUFFER_SIZE:
      return "CL_INVALID_BUFFER_SIZE";
    case -1001:
      return "CL_PLATFORM_NOT_FOUND_KHR";
    default:
      return "an unknown OpenCL error";
  }
}

}  // namespace tunefarm::runtime::opencl
