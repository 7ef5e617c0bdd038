// A built GPU module as tunefarm stores and ships it (`tunefarm build --target cuda|opencl`): the
// device code (PTX, or OpenCL C), and for each host function its signature and the kernel launches
// it makes, with grid and block sizes as expressions of the function's symbolic sizes (evaluated
// at launch). Plain data: the code generator writes it, a GpuDevice loads it; no driver is needed
// to read or write it.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "runtime/core/function_signature.h"
#include "runtime/gpu/gpu_api.h"

namespace tunefarm::runtime::gpu {

// One parameter of a kernel, taken from the host function's arguments by name: a tensor's
// device pointer, or the value of an integer argument or symbolic size.
struct KernelParam {
  enum class Kind { kPointer, kInt32, kInt64 };
  Kind kind = Kind::kPointer;
  std::string name;  // a tensor argument, an int argument, or a symbolic extent ("n")
};

// One kernel launch of a host function, in the order the host function makes them.
struct GpuLaunch {
  std::string kernel;  // the kernel's entry in the device code
  // Launch expressions over the host function's symbolic sizes and int arguments: integers,
  // names, + - *, floordiv(a, b), floormod(a, b), min(a, b), max(a, b) and parentheses, e.g.
  // "floordiv(n + 63, 64)"; "1" for an unused dimension.
  std::array<std::string, 3> grid = {"1", "1", "1"};
  std::array<std::string, 3> block = {"1", "1", "1"};
  int64_t dynamic_shared_bytes = 0;
  std::vector<KernelParam> params;
};

struct GpuHostFunction {
  FunctionSignature signature;  // checked at the call like a CPU kernel's
  std::vector<GpuLaunch> launches;
};

struct GpuModuleImage {
  GpuApi api = GpuApi::kCuda;
  // CUDA: the architecture the PTX targets ("sm_90"). OpenCL: the device profile the schedules
  // were chosen for ("mali", "adreno", "intel_graphics", "pocl" or "generic").
  std::string arch;
  std::string code;  // CUDA: PTX; OpenCL: the OpenCL C source, built by the device's compiler
  std::vector<GpuHostFunction> functions;
};

// A line-based text form with length-prefixed blobs (code, manifest), stable across versions;
// its first line names the API ("tunefarm-cuda-module 1", "tunefarm-opencl-module 1").
std::string SerializeGpuModule(const GpuModuleImage& image);
// InvalidArgument naming what is malformed (a size is checked against the text before anything
// of that size is read).
absl::StatusOr<GpuModuleImage> ParseGpuModule(std::string_view text);
// Whether `text` starts like a serialized module of `api` (a cheap sniff for loaders).
bool LooksLikeGpuModule(std::string_view text, GpuApi api);

// Evaluates a launch expression; InvalidArgument for a syntax error or an unbound name (naming
// it), a division by zero, or a non-positive result where a launch size is required (callers).
absl::StatusOr<int64_t> EvalLaunchExpr(std::string_view expr,
                                       const std::map<std::string, int64_t>& values);

}  // namespace tunefarm::runtime::gpu
