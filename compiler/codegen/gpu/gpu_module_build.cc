#include "compiler/codegen/gpu/gpu_module_build.h"

#include "absl/strings/str_cat.h"
#include "compiler/codegen/gpu/split_host_device.h"
#include "compiler/codegen/llvm/build.h"

namespace tunefarm::codegen::gpu {
namespace {

// The launch of one kernel: sizes as launch expressions, parameters named as the signature
// names them (tensors by argument name, scalars by variable name).
absl::StatusOr<runtime::gpu::GpuLaunch> LaunchOf(const ir::PrimFunc& func,
                                                 const runtime::FunctionSignature& sig,
                                                 const DeviceKernel& k,
                                                 const GpuLaunchLimits& limits) {
  runtime::gpu::GpuLaunch launch;
  launch.kernel = k.name;
  for (int d = 0; d < 3; ++d) {
    absl::StatusOr<std::string> grid = LaunchExprText(k.grid[d]);
    if (!grid.ok()) return grid.status();
    absl::StatusOr<std::string> block = LaunchExprText(k.block[d]);
    if (!block.ok()) return block.status();
    launch.grid[d] = *grid;
    launch.block[d] = *block;
  }
  // The target's limits, checked here where the sizes are constants (else at launch).
  const std::array<int64_t, 3>& max_grid = limits.max_grid;
  const std::array<int64_t, 3>& max_block = limits.max_block;
  int64_t threads = 1;
  for (int d = 0; d < 3; ++d) {
    auto g = ir::AsConstInt(k.grid[d]);
    auto b = ir::AsConstInt(k.block[d]);
    if ((g && (*g < 1 || *g > max_grid[d])) || (b && (*b < 1 || *b > max_block[d]))) {
      return absl::InvalidArgumentError(absl::StrCat(
          "kernel ", k.name, ": ", g && (*g < 1 || *g > max_grid[d]) ? "grid" : "block",
          " dimension ", std::string(1, "xyz"[d]), " of ",
          g && (*g < 1 || *g > max_grid[d]) ? *g : *b, " is outside ", limits.target,
          "'s limits (grid x/y/z up to ", max_grid[0], "/", max_grid[1], "/", max_grid[2],
          ", block up to ", max_block[0], "/", max_block[1], "/", max_block[2], ")"));
    }
    threads *= b ? *b : 1;
  }
  if (threads > limits.max_threads) {
    return absl::InvalidArgumentError(absl::StrCat("kernel ", k.name, ": a block of ", threads,
                                                   " threads; ", limits.target, " allows at most ",
                                                   limits.max_threads));
  }
  for (const ir::Var& v : k.params) {
    runtime::gpu::KernelParam p;
    p.name = v.name();
    bool is_pointer = false;
    for (size_t i = 0; i < func.params.size(); ++i) {
      if (func.params[i]->data.get() == v.get()) {
        p.kind = runtime::gpu::KernelParam::Kind::kPointer;
        p.name = sig.args[i].name;
        is_pointer = true;
      }
    }
    if (!is_pointer) {
      if (!v.dtype().is_integral() || v.dtype().is_vector()) {
        return absl::UnimplementedError(absl::StrCat("kernel ", k.name, " takes ", v.name(),
                                                     " of type ", v.dtype().ToString(),
                                                     "; only integer scalars are passed"));
      }
      p.kind = v.dtype().bits() == 64 ? runtime::gpu::KernelParam::Kind::kInt64
                                      : runtime::gpu::KernelParam::Kind::kInt32;
    }
    launch.params.push_back(std::move(p));
  }
  return launch;
}

}  // namespace

absl::StatusOr<runtime::gpu::GpuModuleImage> BuildGpuModuleSource(
    const std::vector<ir::PrimFunc>& funcs, GpuDialect dialect, const GpuLaunchLimits& limits) {
  if (funcs.empty()) return absl::InvalidArgumentError("no functions to build");
  std::vector<std::vector<DeviceKernel>> kernels;
  for (const ir::PrimFunc& f : funcs) {
    absl::StatusOr<std::vector<DeviceKernel>> split = SplitHostDevice(f);
    if (!split.ok()) return split.status();
    kernels.push_back(std::move(*split));
  }
  absl::StatusOr<std::string> source = EmitGpuSource(funcs, kernels, dialect);
  if (!source.ok()) return source.status();
  runtime::gpu::GpuModuleImage image;
  image.code = std::move(*source);
  for (size_t f = 0; f < funcs.size(); ++f) {
    runtime::gpu::GpuHostFunction host;
    absl::StatusOr<runtime::FunctionSignature> sig = codegen::SignatureOf(funcs[f]);
    if (!sig.ok()) return sig.status();
    host.signature = std::move(*sig);
    for (const DeviceKernel& k : kernels[f]) {
      absl::StatusOr<runtime::gpu::GpuLaunch> launch =
          LaunchOf(funcs[f], host.signature, k, limits);
      if (!launch.ok()) return launch.status();
      host.launches.push_back(std::move(*launch));
    }
    image.functions.push_back(std::move(host));
  }
  return image;
}

}  // namespace tunefarm::codegen::gpu
