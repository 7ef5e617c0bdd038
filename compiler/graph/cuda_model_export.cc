#include "compiler/graph/cuda_model_export.h"

#include <vector>

#include "runtime/core/c_abi.h"
#ifdef TUNEFARM_HAVE_CUDA
#include "compiler/codegen/cuda/build_cuda.h"
#include "runtime/cuda/cuda_module.h"
#endif

namespace tunefarm::graph {

absl::StatusOr<std::string> BuildCudaModelKernels(const BuiltModel& model,
                                                  const std::string& cuda_target) {
  if (!model.target.is_cuda()) {
    return absl::FailedPreconditionError(
        "the model was built for a CPU: only a model built for CUDA has CUDA kernels");
  }
#ifdef TUNEFARM_HAVE_CUDA
  absl::StatusOr<codegen::cuda::CudaTarget> target = codegen::cuda::ParseCudaTarget(cuda_target);
  if (!target.ok()) return target.status();
  std::vector<ir::PrimFunc> funcs;
  for (const GroupKernel& k : model.kernels) funcs.push_back(k.func);
  absl::StatusOr<runtime::cuda::CudaModuleImage> image = codegen::cuda::BuildCuda(funcs, *target);
  if (!image.ok()) return image.status();
  return runtime::cuda::SerializeCudaModule(*image);
#else
  (void)cuda_target;
  return absl::UnimplementedError(
      "this tunefarm was built without the CUDA toolkit: it cannot generate CUDA kernels");
#endif
}

absl::Status ExportCudaModel(const BuiltModel& model, const std::string& cuda_target,
                             const codegen::Target& host, const std::string& path) {
  absl::StatusOr<std::string> kernels = BuildCudaModelKernels(model, cuda_target);
  if (!kernels.ok()) return kernels.status();
  std::string size_bytes;
  std::vector<codegen::DataSymbol> data = ModelDataSymbols(model, &size_bytes);
  data.push_back(
      {TF_CUDA_MODULE_SYMBOL, std::string_view(kernels->c_str(), kernels->size() + 1), 8});
  return codegen::ExportLibrary({}, host, path, data);
}

}  // namespace tunefarm::graph
