#include "compiler/graph/cuda_model_export.h"

#include <vector>

#include "runtime/core/c_abi.h"
#ifdef TUNEFARM_HAVE_CUDA
#include "compiler/codegen/cuda/build_cuda.h"
#include "runtime/cuda/cuda_module.h"
#endif

namespace tunefarm::graph {

absl::StatusOr<std::string> BuildCudaModelKernels(const BuiltModel& model) {
  if (!model.target.is_cuda()) {
    return absl::FailedPreconditionError(
        "the model was built for a CPU: only a model built for CUDA has CUDA kernels");
  }
#ifdef TUNEFARM_HAVE_CUDA
  std::vector<ir::PrimFunc> funcs;
  for (const GroupKernel& k : model.kernels) funcs.push_back(k.func);
  absl::StatusOr<runtime::cuda::CudaModuleImage> image =
      codegen::cuda::BuildCuda(funcs, model.target.target.cuda());
  if (!image.ok()) return image.status();
  return runtime::cuda::SerializeCudaModule(*image);
#else
  return absl::UnimplementedError(
      "this tunefarm was built without the CUDA toolkit: it cannot generate CUDA kernels");
#endif
}

absl::Status ExportCudaModel(const BuiltModel& model, const std::string& path) {
  absl::StatusOr<std::string> kernels = BuildCudaModelKernels(model);
  if (!kernels.ok()) return kernels.status();
  std::string size_bytes;
  std::vector<codegen::DataSymbol> data = ModelDataSymbols(model, &size_bytes);
  data.push_back(
      {TF_CUDA_MODULE_SYMBOL, std::string_view(kernels->c_str(), kernels->size() + 1), 8});
  return codegen::ExportLibrary({}, model.target.target.llvm(), path, data);
}

}  // namespace tunefarm::graph
