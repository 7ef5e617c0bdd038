#include "compiler/graph/gpu_model_export.h"

#include <vector>

#include "compiler/codegen/gpu_target/build_gpu_module.h"
#include "runtime/core/c_abi.h"
#include "runtime/gpu/gpu_module.h"

namespace tunefarm::graph {

absl::StatusOr<std::string> BuildGpuModelKernels(const BuiltModel& model) {
  if (!model.target.is_gpu()) {
    return absl::FailedPreconditionError(
        "the model was built for a CPU: only a model built for a GPU has GPU kernels");
  }
  std::vector<ir::PrimFunc> funcs;
  for (const GroupKernel& k : model.kernels) funcs.push_back(k.func);
  absl::StatusOr<runtime::gpu::GpuModuleImage> image =
      codegen::BuildGpuModule(funcs, model.target.target);
  if (!image.ok()) return image.status();
  return runtime::gpu::SerializeGpuModule(*image);
}

absl::Status ExportGpuModel(const BuiltModel& model, const std::string& path) {
  absl::StatusOr<std::string> kernels = BuildGpuModelKernels(model);
  if (!kernels.ok()) return kernels.status();
  std::string size_bytes;
  std::vector<codegen::DataSymbol> data = ModelDataSymbols(model, &size_bytes);
  data.push_back(
      {TF_GPU_MODULE_SYMBOL, std::string_view(kernels->c_str(), kernels->size() + 1), 8});
  return codegen::ExportLibrary({}, model.target.target.llvm(), path, data);
}

}  // namespace tunefarm::graph
