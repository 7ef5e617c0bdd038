#include "runtime/measure/measured_kernel.h"

#include <fstream>
#include <iterator>
#include <mutex>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "runtime/devices/process_gpu.h"
#include "runtime/gpu/gpu_function.h"
#include "runtime/gpu/gpu_module.h"
#include "runtime/module.h"

namespace tunefarm::runtime::measure {
namespace {

// `function`, or the module's only one when it is empty; errors name the file.
absl::StatusOr<std::string> PickFunction(const std::vector<std::string>& names,
                                         const std::string& function, const std::string& path) {
  if (!function.empty()) return function;
  if (names.size() != 1) {
    return absl::InvalidArgumentError(absl::StrCat(path, " has ", names.size(), " kernels (",
                                                   absl::StrJoin(names, ", "),
                                                   "); name the one to use"));
  }
  return names[0];
}

}  // namespace

bool IsGpuModuleFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::string head(64, '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<size_t>(in.gcount()));
  return gpu::LooksLikeGpuModule(head, gpu::GpuApi::kCuda) ||
         gpu::LooksLikeGpuModule(head, gpu::GpuApi::kOpenCl);
}

absl::StatusOr<MeasuredKernel> MeasuredKernel::Load(const std::string& path,
                                                    const std::string& function) {
  MeasuredKernel kernel;
  if (!IsGpuModuleFile(path)) {
    absl::StatusOr<std::shared_ptr<Module>> module = LoadModule(path);
    if (!module.ok()) return module.status();
    absl::StatusOr<std::string> name = PickFunction((*module)->FunctionNames(), function, path);
    if (!name.ok()) return name.status();
    absl::StatusOr<PackedFunction> fn = (*module)->GetFunction(*name);
    if (!fn.ok()) return fn.status();
    kernel.cpu_.emplace(*std::move(fn));
    return kernel;
  }
  std::ifstream in(path, std::ios::binary);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  absl::StatusOr<gpu::GpuModuleImage> image = gpu::ParseGpuModule(text);
  if (!image.ok()) {
    return absl::InvalidArgumentError(absl::StrCat(path, ": ", image.status().message()));
  }
  // The device is opened once per process: a context costs hundreds of milliseconds, and every
  // candidate of a tuning run measures on the same device.
  const gpu::GpuApi api = image->api;
  absl::StatusOr<std::shared_ptr<gpu::GpuDevice>> device = devices::ProcessGpuDevice(api);
  if (!device.ok()) {
    return absl::UnavailableError(
        absl::StrCat(path, " is a ", gpu::GpuApiTitle(api),
                     " module, and this machine cannot run it: ", device.status().message()));
  }
  absl::StatusOr<std::shared_ptr<gpu::GpuLoadedModule>> module =
      gpu::GpuLoadedModule::Load(*device, *std::move(image));
  if (!module.ok()) {
    return absl::Status(module.status().code(),
                        absl::StrCat(path, ": ", module.status().message()));
  }
  absl::StatusOr<std::string> name = PickFunction((*module)->FunctionNames(), function, path);
  if (!name.ok()) return name.status();
  absl::StatusOr<gpu::GpuFunction> fn = (*module)->GetFunction(*name);
  if (!fn.ok()) return fn.status();
  kernel.gpu_ = std::make_unique<gpu::GpuFunction>(*std::move(fn));
  return kernel;
}

MeasuredKernel::MeasuredKernel(MeasuredKernel&&) noexcept = default;
MeasuredKernel& MeasuredKernel::operator=(MeasuredKernel&&) noexcept = default;
MeasuredKernel::~MeasuredKernel() = default;

const FunctionSignature& MeasuredKernel::signature() const {
  return gpu_ != nullptr ? gpu_->signature() : cpu_->signature();
}

absl::Status MeasuredKernel::Call(absl::Span<const PackedArg> args) const {
  return gpu_ != nullptr ? gpu_->Call(args) : cpu_->Call(args);
}

absl::StatusOr<std::vector<double>> MeasuredKernel::TimeOnDevice(
    absl::Span<const PackedArg> args, const TimeEvaluatorOptions& options) const {
  if (gpu_ == nullptr) return absl::FailedPreconditionError("not a GPU kernel");
  return gpu_->Time(args, options);
}

}  // namespace tunefarm::runtime::measure
