// A built CUDA module as tunefarm stores and ships it (`tunefarm build --target cuda`): the PTX,
// and for each host function its signature and the kernel launches it makes, with grid and block
// sizes as expressions of the function's symbolic sizes (evaluated at launch). Plain data: the
// code generator writes it, the CUDA device loads it; no driver is needed to read or write it.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "runtime/core/function_signature.h"

namespace tunefarm::runtime::cuda {

// One parameter of a kernel, taken from the host function's arguments by name: a tensor's
// device pointer, or the value of an integer argument or symbolic size.
struct KernelParam {
  enum class Kind { kPointer, kInt32, kInt64 };
  Kind kind = Kind::kPointer;
  std::string name;  // a tensor argument, an int argument, or a symbolic extent ("n")
};

// One kernel launch of a host function, in the order the host function makes them.
struct CudaLaunch {
  std::string kernel;  // the PTX entry
  // Launch expressions over the host function's symbolic sizes and int arguments: integers,
  // names, + - *, floordiv(a, b), floormod(a, b), min(a, b), max(a, b) and parentheses, e.g.
  // "floordiv(n + 63, 64)"; "1" for an unused dimension.
  std::array<std::string, 3> grid = {"1", "1", "1"};
  std::array<std::string, 3> block = {"1", "1", "1"};
  int64_t dynamic_shared_bytes = 0;
  std::vector<KernelParam> params;
};

struct CudaHostFunction {
  FunctionSignature signature;  // checked at the call like a CPU kernel's
  std::vector<CudaLaunch> launches;
};

struct CudaModuleImage {
  std::string arch;  // "sm_90"
  std::string ptx;
  std::vector<CudaHostFunction> functions;
};

// A line-based text form with length-prefixed blobs (PTX, manifest), stable across versions.
std::string SerializeCudaModule(const CudaModuleImage& image);
// InvalidArgument naming what is malformed.
absl::StatusOr<CudaModuleImage> ParseCudaModule(std::string_view text);

// Evaluates a launch expression; InvalidArgument for a syntax error or an unbound name (naming
// it), a division by zero, or a non-positive result where a launch size is required (callers).
absl::StatusOr<int64_t> EvalLaunchExpr(std::string_view expr,
                                       const std::map<std::string, int64_t>& values);

}  // namespace tunefarm::runtime::cuda
