#include "compiler/codegen/cuda/build_cuda.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>

#include "absl/strings/str_cat.h"
#include "compiler/codegen/cuda/codegen_cuda.h"
#include "compiler/codegen/cuda/nvrtc_compile.h"
#include "compiler/codegen/cuda/split_host_device.h"
#include "compiler/codegen/llvm/build.h"

namespace tunefarm::codegen::cuda {
namespace {

struct Split {
  std::vector<std::vector<DeviceKernel>> kernels;
  std::string source;
};

absl::StatusOr<Split> SplitAndEmit(const std::vector<ir::PrimFunc>& funcs) {
  Split split;
  for (const ir::PrimFunc& f : funcs) {
    absl::StatusOr<std::vector<DeviceKernel>> kernels = SplitHostDevice(f);
    if (!kernels.ok()) return kernels.status();
    split.kernels.push_back(std::move(*kernels));
  }
  absl::StatusOr<std::string> source = EmitCudaSource(funcs, split.kernels);
  if (!source.ok()) return source.status();
  split.source = std::move(*source);
  return split;
}

// The launch of one kernel: sizes as launch expressions, parameters named as the signature
// names them (tensors by argument name, scalars by variable name).
absl::StatusOr<runtime::cuda::CudaLaunch> LaunchOf(const ir::PrimFunc& func,
                                                   const runtime::FunctionSignature& sig,
                                                   const DeviceKernel& k) {
  runtime::cuda::CudaLaunch launch;
  launch.kernel = k.name;
  for (int d = 0; d < 3; ++d) {
    absl::StatusOr<std::string> grid = LaunchExprText(k.grid[d]);
    if (!grid.ok()) return grid.status();
    absl::StatusOr<std::string> block = LaunchExprText(k.block[d]);
    if (!block.ok()) return block.status();
    launch.grid[d] = *grid;
    launch.block[d] = *block;
  }
  // CUDA's limits, checked here where the sizes are constants (else at launch).
  const std::array<int64_t, 3> max_grid = {2147483647, 65535, 65535};
  const std::array<int64_t, 3> max_block = {1024, 1024, 64};
  int64_t threads = 1;
  for (int d = 0; d < 3; ++d) {
    auto g = ir::AsConstInt(k.grid[d]);
    auto b = ir::AsConstInt(k.block[d]);
    if ((g && (*g < 1 || *g > max_grid[d])) || (b && (*b < 1 || *b > max_block[d]))) {
      return absl::InvalidArgumentError(absl::StrCat(
          "kernel ", k.name, ": ", g && (*g < 1 || *g > max_grid[d]) ? "grid" : "block",
          " dimension ", std::string(1, "xyz"[d]), " of ",
          g && (*g < 1 || *g > max_grid[d]) ? *g : *b,
          " is outside CUDA's limits (grid x/y/z up to 2^31-1/65535/65535, block up to "
          "1024/1024/64)"));
    }
    threads *= b ? *b : 1;
  }
  if (threads > 1024) {
    return absl::InvalidArgumentError(absl::StrCat("kernel ", k.name, ": a block of ", threads,
                                                   " threads; CUDA allows at most 1024"));
  }
  for (const ir::Var& v : k.params) {
    runtime::cuda::KernelParam p;
    p.name = v.name();
    bool is_pointer = false;
    for (size_t i = 0; i < func.params.size(); ++i) {
      if (func.params[i]->data.get() == v.get()) {
        p.kind = runtime::cuda::KernelParam::Kind::kPointer;
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
      p.kind = v.dtype().bits() == 64 ? runtime::cuda::KernelParam::Kind::kInt64
                                      : runtime::cuda::KernelParam::Kind::kInt32;
    }
    launch.params.push_back(std::move(p));
  }
  return launch;
}

}  // namespace

absl::StatusOr<std::string> GenerateCudaSource(const std::vector<ir::PrimFunc>& funcs) {
  absl::StatusOr<Split> split = SplitAndEmit(funcs);
  if (!split.ok()) return split.status();
  return std::move(split->source);
}

absl::StatusOr<runtime::cuda::CudaModuleImage> BuildCuda(const std::vector<ir::PrimFunc>& funcs,
                                                         const target::CudaTarget& target) {
  if (funcs.empty()) return absl::InvalidArgumentError("BuildCuda: no functions");
  runtime::cuda::CudaModuleImage image;
  image.arch = target.arch();
  absl::StatusOr<Split> split = SplitAndEmit(funcs);
  if (!split.ok()) return split.status();
  for (size_t f = 0; f < funcs.size(); ++f) {
    runtime::cuda::CudaHostFunction host;
    absl::StatusOr<runtime::FunctionSignature> sig = SignatureOf(funcs[f]);
    if (!sig.ok()) return sig.status();
    host.signature = std::move(*sig);
    for (const DeviceKernel& k : split->kernels[f]) {
      absl::StatusOr<runtime::cuda::CudaLaunch> launch = LaunchOf(funcs[f], host.signature, k);
      if (!launch.ok()) return launch.status();
      host.launches.push_back(std::move(*launch));
    }
    image.functions.push_back(std::move(host));
  }
  if (const char* dump = std::getenv("TUNEFARM_DUMP_CUDA"); dump != nullptr && *dump != '\0') {
    std::fprintf(stderr, "// CUDA C for %s\n%s\n", funcs[0].name.c_str(), split->source.c_str());
  }
  absl::StatusOr<std::string> ptx = CompileToPtx(split->source, funcs[0].name + ".cu", target);
  if (!ptx.ok()) return ptx.status();
  image.ptx = std::move(*ptx);
  return image;
}

absl::StatusOr<runtime::cuda::CudaModuleImage> BuildCuda(const ir::PrimFunc& func,
                                                         const target::CudaTarget& target) {
  return BuildCuda(std::vector<ir::PrimFunc>{func}, target);
}

absl::StatusOr<runtime::cuda::CudaModuleImage> ExportCudaModule(const ir::PrimFunc& func,
                                                                const target::CudaTarget& target,
                                                                const std::string& path) {
  absl::StatusOr<runtime::cuda::CudaModuleImage> image = BuildCuda(func, target);
  if (!image.ok()) return image.status();
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << runtime::cuda::SerializeCudaModule(*image);
  out.close();
  if (!out) return absl::UnavailableError(absl::StrCat("cannot write ", path));
  return image;
}

}  // namespace tunefarm::codegen::cuda
