// `tunefarm run --target cuda|opencl`: the lowered function built into a GPU module and run on this
// machine's device of its API through the device API, or a clear "no device" where there is none.
#include "absl/strings/str_cat.h"
#include "compiler/codegen/gpu_target/build_gpu_module.h"
#include "driver/kernel_runner.h"
#include "runtime/devices/process_gpu.h"
#include "runtime/gpu/gpu_function.h"

namespace tunefarm::driver {
namespace {

class GpuRunner : public KernelRunner {
 public:
  GpuRunner(runtime::gpu::GpuFunction func, runtime::FunctionSignature signature,
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
  runtime::gpu::GpuFunction func_;
  runtime::FunctionSignature signature_;
  std::string target_;
};

}  // namespace

absl::StatusOr<std::unique_ptr<KernelRunner>> CreateGpuRunner(const ir::PrimFunc& func,
                                                              const target::Target& target) {
  // Built first, so a schedule the code generator refuses says so even without a device.
  absl::StatusOr<runtime::gpu::GpuModuleImage> image = codegen::BuildGpuModule({func}, target);
  if (!image.ok()) return image.status();
  absl::StatusOr<std::shared_ptr<runtime::gpu::GpuDevice>> device =
      runtime::devices::ProcessGpuDevice(image->api);
  if (!device.ok()) {
    return absl::UnavailableError(
        absl::StrCat("no ", runtime::gpu::GpuApiTitle(image->api), " device present (",
                     device.status().message(), "); `tunefarm build --target \"", target.str(),
                     "\"` still writes the module for a machine with one"));
  }
  runtime::FunctionSignature signature;
  for (const runtime::gpu::GpuHostFunction& f : image->functions) {
    if (f.signature.name == func.name) signature = f.signature;
  }
  absl::StatusOr<std::shared_ptr<runtime::gpu::GpuLoadedModule>> module =
      runtime::gpu::GpuLoadedModule::Load(*device, *std::move(image));
  if (!module.ok()) return module.status();
  absl::StatusOr<runtime::gpu::GpuFunction> kernel = (*module)->GetFunction(func.name);
  if (!kernel.ok()) return kernel.status();
  return std::make_unique<GpuRunner>(
      *std::move(kernel), std::move(signature),
      absl::StrCat(target.str(), " on ", (*device)->attributes().name));
}

}  // namespace tunefarm::driver
