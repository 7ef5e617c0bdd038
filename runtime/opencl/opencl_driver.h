// The OpenCL ICD loader (libOpenCL.so.1: ocl-icd, or a board vendor's), loaded at run time with
// dlopen so that no binary links it; types and constants come from the Khronos headers.
#pragma once

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace tunefarm::runtime::opencl {

// The loaded library: one per process, never unloaded. Entry points carry the OpenCL 1.2 names
// without the "cl" prefix (every OpenCL 1.2+ platform has them: Mali, Adreno, PoCL, NVIDIA).
class OpenClDriver {
 public:
  // Unavailable "no OpenCL loader (libOpenCL.so.1 not found)" or "no OpenCL platform (...)";
  // computed once and cached.
  static absl::StatusOr<const OpenClDriver*> Get();

  // OK for CL_SUCCESS, else Internal "WHAT: CL_ERROR_NAME (-N)".
  static absl::Status Check(cl_int result, std::string_view what);
  // "CL_INVALID_WORK_GROUP_SIZE" for -54.
  static const char* ErrorName(cl_int result);

  cl_int (*GetPlatformIDs)(cl_uint, cl_platform_id*, cl_uint*) = nullptr;
  cl_int (*GetPlatformInfo)(cl_platform_id, cl_platform_info, size_t, void*, size_t*) = nullptr;
  cl_int (*GetDeviceIDs)(cl_platform_id, cl_device_type, cl_uint, cl_device_id*,
                         cl_uint*) = nullptr;
  cl_int (*GetDeviceInfo)(cl_device_id, cl_device_info, size_t, void*, size_t*) = nullptr;
  cl_context (*CreateContext)(const cl_context_properties*, cl_uint, const cl_device_id*,
                              void(CL_CALLBACK*)(const char*, const void*, size_t, void*), void*,
                              cl_int*) = nullptr;
  cl_int (*ReleaseContext)(cl_context) = nullptr;
  cl_command_queue (*CreateCommandQueue)(cl_context, cl_device_id, cl_command_queue_properties,
                                         cl_int*) = nullptr;
  cl_int (*ReleaseCommandQueue)(cl_command_queue) = nullptr;
  cl_mem (*CreateBuffer)(cl_context, cl_mem_flags, size_t, void*, cl_int*) = nullptr;
  cl_mem (*CreateSubBuffer)(cl_mem, cl_mem_flags, cl_buffer_create_type, const void*,
                            cl_int*) = nullptr;
  cl_int (*ReleaseMemObject)(cl_mem) = nullptr;
  cl_int (*EnqueueWriteBuffer)(cl_command_queue, cl_mem, cl_bool, size_t, size_t, const void*,
                               cl_uint, const cl_event*, cl_event*) = nullptr;
  cl_int (*EnqueueReadBuffer)(cl_command_queue, cl_mem, cl_bool, size_t, size_t, void*, cl_uint,
                              const cl_event*, cl_event*) = nullptr;
  cl_program (*CreateProgramWithSource)(cl_context, cl_uint, const char**, const size_t*,
                                        cl_int*) = nullptr;
  cl_program (*CreateProgramWithBinary)(cl_context, cl_uint, const cl_device_id*, const size_t*,
                                        const unsigned char**, cl_int*, cl_int*) = nullptr;
  cl_int (*BuildProgram)(cl_program, cl_uint, const cl_device_id*, const char*,
                         void(CL_CALLBACK*)(cl_program, void*), void*) = nullptr;
  cl_int (*GetProgramBuildInfo)(cl_program, cl_device_id, cl_program_build_info, size_t, void*,
                                size_t*) = nullptr;
  cl_int (*GetProgramInfo)(cl_program, cl_program_info, size_t, void*, size_t*) = nullptr;
  cl_int (*ReleaseProgram)(cl_program) = nullptr;
  cl_kernel (*CreateKernel)(cl_program, const char*, cl_int*) = nullptr;
  cl_int (*ReleaseKernel)(cl_kernel) = nullptr;
  cl_int (*SetKernelArg)(cl_kernel, cl_uint, size_t, const void*) = nullptr;
  cl_int (*GetKernelWorkGroupInfo)(cl_kernel, cl_device_id, cl_kernel_work_group_info, size_t,
                                   void*, size_t*) = nullptr;
  cl_int (*EnqueueNDRangeKernel)(cl_command_queue, cl_kernel, cl_uint, const size_t*, const size_t*,
                                 const size_t*, cl_uint, const cl_event*, cl_event*) = nullptr;
  cl_int (*Finish)(cl_command_queue) = nullptr;
  cl_int (*WaitForEvents)(cl_uint, const cl_event*) = nullptr;
  cl_int (*GetEventProfilingInfo)(cl_event, cl_profiling_info, size_t, void*, size_t*) = nullptr;
  cl_int (*ReleaseEvent)(cl_event) = nullptr;

 private:
  OpenClDriver() = default;
  static absl::StatusOr<const OpenClDriver*> Load();
};

}  // namespace tunefarm::runtime::opencl
