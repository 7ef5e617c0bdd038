// SplitHostDevice: cuts a lowered GPU function into its kernels — each outermost region bound
// to blockIdx/threadIdx becomes one kernel, launched with the grid and block its thread-extent
// attributes give — and checks that nothing else is left to run on the host.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler/ir/function.h"

namespace tunefarm::codegen::gpu {

struct DeviceKernel {
  std::string name;  // "<func>_kernel<i>"
  ir::Stmt body;     // the region, thread_extent attributes included
  // Per dimension x, y, z: the launch extent (the largest extent any attribute of that tag gives;
  // IntImm 1 where unused), over the function's symbolic sizes and scalar arguments.
  std::array<ir::Expr, 3> grid;
  std::array<ir::Expr, 3> block;
  // Variables the kernel takes as parameters: storage handles of the function's buffers (in
  // parameter order), then scalars (symbolic sizes, integer arguments) in order of first use.
  std::vector<ir::Var> params;
};

// Preconditions: the function was lowered for a GPU target (flattened, virtual threads injected,
// barriers inserted). Errors (InvalidArgument/Unimplemented, naming the statement): computation
// outside every thread-bound region (a stage not bound to blockIdx/threadIdx), a global buffer
// allocated on the host, a kernel reading a variable the host cannot pass (e.g. a host loop's).
absl::StatusOr<std::vector<DeviceKernel>> SplitHostDevice(const ir::PrimFunc& func);

// The thread tag's dimension: "blockIdx.y" -> 1; -1 for a tag that is none of blockIdx/threadIdx
// .x/.y/.z. `is_block` tells blockIdx from threadIdx.
int ThreadTagDim(const std::string& tag, bool* is_block);

// An integer expression over host-known names in the launch-expression grammar of
// runtime/gpu/gpu_module.h ("floordiv(n + 63, 64)"); InvalidArgument for anything else.
absl::StatusOr<std::string> LaunchExprText(const ir::Expr& e);

}  // namespace tunefarm::codegen::gpu
