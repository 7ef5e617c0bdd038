#include "runtime/gpu/gpu_function.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <limits>
#include <thread>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "runtime/core/argument_check.h"

namespace tunefarm::runtime::gpu {
namespace {

size_t TensorBytes(const DLTensor& t) {
  int64_t elements = 1;
  for (int i = 0; i < t.ndim; ++i) elements *= t.shape[i];
  return static_cast<size_t>(elements) * ((t.dtype.bits * t.dtype.lanes + 7) / 8);
}

}  // namespace

// One call's device state: the tensors' device copies and the launches with their sizes and
// arguments resolved.
struct GpuFunction::Prepared {
  struct Launch {
    void* kernel = nullptr;
    LaunchDims dims;
    std::vector<KernelArg> args;
  };
  std::vector<DLTensor*> host;  // per argument; nullptr for a scalar
  std::vector<DeviceBuffer> device;
  std::vector<Launch> launches;
};

absl::StatusOr<std::shared_ptr<GpuLoadedModule>> GpuLoadedModule::Load(
    std::shared_ptr<GpuDevice> device, GpuModuleImage image) {
  if (device == nullptr) return absl::InvalidArgumentError("no GPU device given");
  std::shared_ptr<GpuLoadedModule> module(new GpuLoadedModule());
  module->device_ = std::move(device);
  module->image_ = std::move(image);
  absl::StatusOr<std::shared_ptr<LoadedCode>> code = module->device_->Load(module->image_);
  if (!code.ok()) return code.status();
  module->code_ = std::move(*code);
  for (const GpuHostFunction& fn : module->image_.functions) {
    for (const GpuLaunch& launch : fn.launches) {
      if (module->kernels_.count(launch.kernel) != 0) continue;
      absl::StatusOr<void*> kernel = module->code_->Kernel(launch.kernel);
      if (!kernel.ok()) {
        return absl::NotFoundError(absl::StrCat("function '", fn.signature.name,
                                                "' launches kernel '", launch.kernel,
                                                "', which the module's code does not define"));
      }
      module->kernels_[launch.kernel] = *kernel;
    }
  }
  return module;
}

absl::StatusOr<GpuFunction> GpuLoadedModule::GetFunction(std::string_view name) const {
  for (const GpuHostFunction& fn : image_.functions) {
    if (fn.signature.name == name) return GpuFunction(shared_from_this(), &fn);
  }
  return absl::NotFoundError(
      absl::StrCat(GpuApiName(image_.api), " module has no function '", std::string(name),
                   "' (it has: ", absl::StrJoin(FunctionNames(), ", "), ")"));
}

std::vector<std::string> GpuLoadedModule::FunctionNames() const {
  std::vector<std::string> names;
  for (const GpuHostFunction& fn : image_.functions) names.push_back(fn.signature.name);
  return names;
}

absl::Status GpuFunction::Prepare(absl::Span<const PackedArg> args, bool copy_to_device,
                                  Prepared* out) const {
  const FunctionSignature& sig = function_->signature;
  std::vector<TFValue> values(args.size());
  std::vector<int32_t> codes(args.size());
  for (size_t i = 0; i < args.size(); ++i) {
    args[i].ToAbi(&values[i], &codes[i]);
  }
  // Device tensors are checked as host views of themselves (shape, dtype, alignment): the
  // argument checker speaks for CPU kernels, and where the bytes live is this call's concern.
  std::vector<DLTensor> views;
  views.reserve(args.size());
  std::vector<TFValue> checked = values;
  for (size_t i = 0; i < args.size() && !copy_to_device; ++i) {
    if (codes[i] != kTFArgTensor) continue;
    const auto* t = static_cast<const DLTensor*>(values[i].v_handle);
    const GpuDevice& device = *module_->device_;
    if (t != nullptr && (t->device.device_type != device.dl_device_type() ||
                         t->device.device_id != device.ordinal())) {
      return absl::InvalidArgumentError(
          absl::StrCat("kernel '", sig.name, "': argument ", i, " is not a tensor on ",
                       GpuApiTitle(device.api()), " device ", device.ordinal()));
    }
    if (t == nullptr) continue;
    views.push_back(*t);
    views.back().device = DLDevice{kDLCPU, 0};
    // `data` is a driver handle (a cl_mem is no address): what alignment can be checked is the
    // offset's, the buffers themselves being allocated aligned by every driver.
    alignas(kTensorAlignment) static unsigned char aligned_placeholder[kTensorAlignment];
    views.back().data = aligned_placeholder;
    checked[i].v_handle = &views.back();
  }
  std::string error =
      CheckArguments(sig, checked.data(), codes.data(), static_cast<int32_t>(args.size()));
  if (!error.empty()) {
    return absl::InvalidArgumentError(absl::StrCat("kernel '", sig.name, "': ", error));
  }

  // The names launch expressions and parameters may use: int arguments and symbolic extents.
  std::map<std::string, int64_t> bound;
  std::map<std::string, size_t> tensor_index;
  out->host.assign(args.size(), nullptr);
  for (size_t i = 0; i < args.size(); ++i) {
    const ArgSpec& spec = sig.args[i];
    if (spec.kind == ArgKind::kTensor) {
      auto* t = static_cast<DLTensor*>(values[i].v_handle);
      out->host[i] = t;
      tensor_index[spec.name] = i;
      for (size_t d = 0; d < spec.shape.size(); ++d) {
        if (spec.shape[d].is_symbol()) bound[spec.shape[d].symbol] = t->shape[d];
      }
    } else if (spec.kind == ArgKind::kInt) {
      bound[spec.name] = values[i].v_int64;
    }
  }

  const GpuDevice& device = *module_->device_;
  out->device.clear();
  for (DLTensor* t : out->host) {
    if (t == nullptr || !copy_to_device) {
      out->device.emplace_back();
      continue;
    }
    absl::StatusOr<DeviceBuffer> buffer = device.Allocate(TensorBytes(*t));
    if (!buffer.ok()) return buffer.status();
    if (absl::Status s = buffer->CopyFromHost(t->data, TensorBytes(*t)); !s.ok()) return s;
    out->device.push_back(std::move(*buffer));
  }

  for (const GpuLaunch& launch : function_->launches) {
    Prepared::Launch& l = out->launches.emplace_back();
    l.kernel = module_->kernels_.at(launch.kernel);
    auto where = [&](std::string_view what) {
      return absl::StrCat("kernel '", sig.name, "', launch of '", launch.kernel, "', ",
                          std::string(what));
    };
    for (int axis = 0; axis < 6; ++axis) {
      const std::string& expr = axis < 3 ? launch.grid[axis] : launch.block[axis - 3];
      std::string dim =
          absl::StrCat(axis < 3 ? "grid." : "block.", std::string(1, "xyz"[axis % 3]));
      absl::StatusOr<int64_t> v = EvalLaunchExpr(expr, bound);
      if (!v.ok())
        return absl::InvalidArgumentError(where(absl::StrCat(dim, ": ", v.status().message())));
      if (*v <= 0 || *v > std::numeric_limits<unsigned int>::max()) {
        return absl::InvalidArgumentError(
            where(absl::StrCat(dim, " = ", expr, " = ", *v, " is not a valid launch size")));
      }
      (axis < 3 ? l.dims.grid[axis] : l.dims.block[axis - 3]) = static_cast<uint32_t>(*v);
    }
    if (launch.dynamic_shared_bytes < 0 ||
        launch.dynamic_shared_bytes > std::numeric_limits<unsigned int>::max()) {
      return absl::InvalidArgumentError(where("bad dynamic shared memory size"));
    }
    l.dims.dynamic_shared_bytes = static_cast<uint32_t>(launch.dynamic_shared_bytes);
    if (absl::Status s = device.CheckLaunchLimits(l.dims); !s.ok()) {
      return absl::InvalidArgumentError(where(std::string(s.message())));
    }
    l.args.assign(launch.params.size(), KernelArg{});
    for (size_t p = 0; p < launch.params.size(); ++p) {
      const KernelParam& param = launch.params[p];
      if (param.kind == KernelParam::Kind::kPointer) {
        auto it = tensor_index.find(param.name);
        if (it == tensor_index.end()) {
          return absl::InvalidArgumentError(
              where(absl::StrCat("pointer parameter '", param.name, "' is not a tensor argument")));
        }
        const DLTensor& t = *out->host[it->second];
        KernelArg& arg = l.args[p];
        arg.kind = KernelArg::Kind::kBuffer;
        arg.handle =
            copy_to_device ? out->device[it->second].handle() : reinterpret_cast<uint64_t>(t.data);
        arg.offset = copy_to_device ? 0 : t.byte_offset;
        arg.size = TensorBytes(t);
        continue;
      }
      auto it = bound.find(param.name);
      if (it == bound.end()) {
        return absl::InvalidArgumentError(
            where(absl::StrCat("integer parameter '", param.name,
                               "' is neither an int argument nor a symbolic size")));
      }
      if (param.kind == KernelParam::Kind::kInt32) {
        if (it->second < std::numeric_limits<int32_t>::min() ||
            it->second > std::numeric_limits<int32_t>::max()) {
          return absl::InvalidArgumentError(where(
              absl::StrCat("parameter '", param.name, "' = ", it->second, " does not fit int32")));
        }
        l.args[p].kind = KernelArg::Kind::kInt32;
      } else {
        l.args[p].kind = KernelArg::Kind::kInt64;
      }
      l.args[p].value = it->second;
    }
  }
  return absl::OkStatus();
}

absl::Status GpuFunction::Launch(const Prepared& prepared) const {
  for (size_t i = 0; i < prepared.launches.size(); ++i) {
    const Prepared::Launch& l = prepared.launches[i];
    absl::Status s = module_->device_->Launch(l.kernel, l.dims, l.args);
    if (!s.ok()) {
      return absl::Status(s.code(),
                          absl::StrCat("kernel '", signature().name, "': launching '",
                                       function_->launches[i].kernel, "' with grid (",
                                       absl::StrJoin(l.dims.grid, ", "), "), block (",
                                       absl::StrJoin(l.dims.block, ", "), "): ", s.message()));
    }
  }
  return absl::OkStatus();
}

absl::Status GpuFunction::CopyBack(const Prepared& prepared) const {
  if (absl::Status s = module_->device_->Synchronize(); !s.ok()) {
    return absl::Status(s.code(), absl::StrCat("kernel '", signature().name, "': ", s.message()));
  }
  for (size_t i = 0; i < prepared.host.size(); ++i) {
    DLTensor* t = prepared.host[i];
    if (t == nullptr) continue;
    if (absl::Status s = prepared.device[i].CopyToHost(t->data, TensorBytes(*t)); !s.ok()) {
      return s;
    }
  }
  return absl::OkStatus();
}

absl::Status GpuFunction::Call(absl::Span<const PackedArg> args) const {
  Prepared prepared;
  if (absl::Status s = Prepare(args, /*copy_to_device=*/true, &prepared); !s.ok()) return s;
  if (absl::Status s = Launch(prepared); !s.ok()) return s;
  return CopyBack(prepared);
}

absl::StatusOr<std::vector<double>> GpuFunction::Time(absl::Span<const PackedArg> args,
                                                      const TimeEvaluatorOptions& options) const {
  if (options.number < 1 || options.repeat < 1 || options.warmup < 0) {
    return absl::InvalidArgumentError(absl::StrCat("bad timing options: number ", options.number,
                                                   ", repeat ", options.repeat, ", warmup ",
                                                   options.warmup));
  }
  Prepared prepared;
  if (absl::Status s = Prepare(args, /*copy_to_device=*/true, &prepared); !s.ok()) return s;
  const GpuDevice& device = *module_->device_;
  for (int i = 0; i < options.warmup; ++i) {
    if (absl::Status s = Launch(prepared); !s.ok()) return s;
  }
  std::vector<double> seconds;
  int number = options.number;
  while (static_cast<int>(seconds.size()) < options.repeat) {
    if (options.cooldown_ms > 0 && !seconds.empty()) {
      std::this_thread::sleep_for(std::chrono::duration<double, std::milli>(options.cooldown_ms));
    }
    absl::StatusOr<double> elapsed = device.TimeQueued([&]() -> absl::Status {
      for (int i = 0; i < number; ++i) {
        if (absl::Status s = Launch(prepared); !s.ok()) return s;
      }
      return absl::OkStatus();
    });
    if (!elapsed.ok()) return elapsed.status();
    const double ms = *elapsed * 1e3;
    if (ms < options.min_repeat_ms && number < (1 << 24)) {
      // Too short to trust: rerun with enough calls to reach min_repeat_ms (later repeats keep
      // the larger number so every sample averages the same count).
      double scale = ms > 0 ? options.min_repeat_ms / ms * 1.2 : 10.0;
      number = static_cast<int>(std::min<double>(number * std::max(scale, 2.0), 1 << 24));
      seconds.clear();
      continue;
    }
    seconds.push_back(*elapsed / number);
  }
  if (absl::Status s = CopyBack(prepared); !s.ok()) return s;
  return seconds;
}

absl::StatusOr<GpuDeviceCall> GpuFunction::PrepareDeviceCall(
    absl::Span<const PackedArg> args) const {
  auto prepared = std::make_unique<Prepared>();
  if (absl::Status s = Prepare(args, /*copy_to_device=*/false, prepared.get()); !s.ok()) return s;
  return GpuDeviceCall(*this, std::move(prepared));
}

GpuDeviceCall::GpuDeviceCall(GpuFunction function, std::unique_ptr<GpuFunction::Prepared> prepared)
    : function_(std::move(function)), prepared_(std::move(prepared)) {}
GpuDeviceCall::GpuDeviceCall(GpuDeviceCall&&) noexcept = default;
GpuDeviceCall& GpuDeviceCall::operator=(GpuDeviceCall&&) noexcept = default;
GpuDeviceCall::~GpuDeviceCall() = default;

absl::Status GpuDeviceCall::Launch() const { return function_.Launch(*prepared_); }

}  // namespace tunefarm::runtime::gpu
