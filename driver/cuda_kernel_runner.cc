// `tunefarm run --target cuda`: the lowered function built into a CUDA module (NVRTC) and run on
// this machine's GPU through the driver, or a clear "no GPU present" where there is none.
#include "absl/strings/str_cat.h"
#include "driver/kernel_runner.h"

#ifdef TUNEFARM_HAVE_CUDA
#include "compiler/codegen/cuda/build_cuda.h"
#include "compiler/target/cuda_target.h"
#include "runtime/cuda/cuda_device.h"
#include "runtime/cuda/cuda_function.h"
#endif

namespace tunefarm::driver {

#ifdef TUNEFARM_HAVE_CUDA
namespace {

class CudaRunner : public KernelRunner {
 public:
  CudaRunner(runtime::cuda::CudaFunction func, runtime::FunctionSignature signature,
             std::string target)
      : func_(std::move(func)), signature_(std::move(signature)), target_(std::move(target)) {}

  absl::Status Run(const std::vector<runtime::NDArray*>& arrays,
                   const driver::Bindings& bindings) const override {
    absl::StatusOr<std::vector<runtime::PackedArg>> args =
        PackArguments(signature_, arrays, bindings);
    if (!args.ok()) return args.status();
    return func_.Call(*args);
  }
  std::string Describe() const override { return target_; }
  bool UsesThreadPool() const override { return false; }

  absl::StatusOr<std::vector<double>> Time(
      const std::vector<runtime::NDArray*>& arrays, const driver::Bindings& bindings,
      const runtime::TimeEvaluatorOptions& options) const override {
    absl::StatusOr<std::vector<runtime::PackedArg>> args =
        PackArguments(signature_, arrays, bindings);
    if (!args.ok()) return args.status();
    return func_.Time(*args, options);
  }

 private:
  runtime::cuda::CudaFunction func_;
  runtime::FunctionSignature signature_;
  std::string target_;
};

}  // namespace

absl::StatusOr<std::unique_ptr<KernelRunner>> CreateCudaRunner(const ir::PrimFunc& func,
                                                               const target::CudaTarget& target) {
  // Compiled first, so a schedule the code generator refuses says so even without a GPU.
  absl::StatusOr<runtime::cuda::CudaModuleImage> image = codegen::cuda::BuildCuda(func, target);
  if (!image.ok()) return image.status();
  absl::StatusOr<std::shared_ptr<runtime::cuda::CudaDevice>> device =
      runtime::cuda::CudaDevice::Open(0);
  if (!device.ok()) {
    return absl::UnavailableError(absl::StrCat(
        "no GPU present (", device.status().message(), "); `tunefarm build --target \"",
        target.ToString(), "\"` still writes the module for a machine with one"));
  }
  runtime::FunctionSignature signature;
  for (const runtime::cuda::CudaHostFunction& f : image->functions) {
    if (f.signature.name == func.name) signature = f.signature;
  }
  absl::StatusOr<std::shared_ptr<runtime::cuda::CudaLoadedModule>> module =
      runtime::cuda::CudaLoadedModule::Load(*device, *std::move(image));
  if (!module.ok()) return module.status();
  absl::StatusOr<runtime::cuda::CudaFunction> kernel = (*module)->GetFunction(func.name);
  if (!kernel.ok()) return kernel.status();
  return std::make_unique<CudaRunner>(*std::move(kernel), std::move(signature),
                                      absl::StrCat(target.ToString(), " on ", (*device)->arch()));
}

#else

absl::StatusOr<std::unique_ptr<KernelRunner>> CreateCudaRunner(const ir::PrimFunc&,
                                                               const target::CudaTarget& target) {
  return absl::FailedPreconditionError(
      absl::StrCat("target '", target.ToString(),
                   "': this tunefarm was built without the CUDA toolkit (NVRTC)"));
}

#endif

}  // namespace tunefarm::driver
