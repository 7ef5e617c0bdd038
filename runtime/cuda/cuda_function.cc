#include "runtime/cuda/cuda_function.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <limits>
#include <thread>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "runtime/core/argument_check.h"

namespace tunefarm::runtime::cuda {
namespace {

// Kernels up to this much dynamic shared memory need no opt-in (cuFuncSetAttribute).
constexpr int64_t kDefaultSharedBytes = 48 * 1024;

// Fills one TFValue and its type code from a PackedArg (as PackedFunction::Call does).
struct ToValue {
  TFValue* value;
  int32_t* code;
  void operator()(DLTensor* t) const {
    value->v_handle = t;
    *code = kTFArgTensor;
  }
  void operator()(int64_t v) const {
    value->v_int64 = v;
    *code = kTFArgInt;
  }
  void operator()(double v) const {
    value->v_float64 = v;
    *code = kTFArgFloat;
  }
  void operator()(PackedArg::HandleTag h) const {
    value->v_handle = h.ptr;
    *code = kTFArgHandle;
  }
};

size_t TensorBytes(const DLTensor& t) {
  int64_t elements = 1;
  for (int i = 0; i < t.ndim; ++i) elements *= t.shape[i];
  return static_cast<size_t>(elements) * ((t.dtype.bits * t.dtype.lanes + 7) / 8);
}

}  // namespace

// One call's device state: the tensors' device copies and the launches with their sizes and
// parameter values resolved.
struct CudaFunction::Prepared {
  struct Launch {
    drv::CUfunction function = nullptr;
    std::array<unsigned int, 3> grid = {1, 1, 1};
    std::array<unsigned int, 3> block = {1, 1, 1};
    unsigned int shared_bytes = 0;
    std::vector<uint64_t> slots;  // one 8-byte slot per kernel parameter
    std::vector<void*> params;    // pointers into `slots`, as LaunchKernel wants
  };
  std::vector<DLTensor*> host;  // per argument; nullptr for a scalar
  std::vector<DeviceBuffer> device;
  std::vector<Launch> launches;
};

absl::StatusOr<std::shared_ptr<CudaLoadedModule>> CudaLoadedModule::Load(
    std::shared_ptr<CudaDevice> device, CudaModuleImage image) {
  if (device == nullptr) return absl::InvalidArgumentError("no CUDA device given");
  const CudaDriver& d = device->driver();
  if (absl::Status s = device->MakeCurrent(); !s.ok()) return s;
  std::shared_ptr<CudaLoadedModule> module(new CudaLoadedModule());
  module->device_ = std::move(device);
  module->image_ = std::move(image);

  std::string error_log(16 * 1024, '\0');
  int options[] = {drv::CU_JIT_ERROR_LOG_BUFFER, drv::CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void* values[] = {error_log.data(), reinterpret_cast<void*>(error_log.size())};
  drv::CUresult r =
      d.ModuleLoadDataEx(&module->module_, module->image_.ptx.c_str(), 2, options, values);
  if (r != drv::CUDA_SUCCESS) {
    module->module_ = nullptr;
    error_log.resize(std::strlen(error_log.c_str()));
    absl::Status s =
        d.Check(r, absl::StrCat("loading PTX for ", module->image_.arch, " on ",
                                module->device_->name(), " (", module->device_->arch(), ")"));
    return absl::Status(s.code(),
                        absl::StrCat(s.message(), error_log.empty() ? "" : ": ", error_log));
  }
  // The most dynamic shared memory any launch of a kernel asks for: the opt-in is per kernel.
  std::map<std::string, int64_t> shared_bytes;
  for (const CudaHostFunction& fn : module->image_.functions) {
    for (const CudaLaunch& launch : fn.launches) {
      drv::CUfunction& kernel = module->kernels_[launch.kernel];
      if (kernel == nullptr && d.ModuleGetFunction(&kernel, module->module_,
                                                   launch.kernel.c_str()) != drv::CUDA_SUCCESS) {
        return absl::NotFoundError(absl::StrCat("function '", fn.signature.name,
                                                "' launches kernel '", launch.kernel,
                                                "', which the PTX does not define"));
      }
      int64_t& most = shared_bytes[launch.kernel];
      most = std::max(most, launch.dynamic_shared_bytes);
    }
  }
  for (const auto& [name, bytes] : shared_bytes) {
    if (bytes <= kDefaultSharedBytes) continue;
    if (bytes > std::numeric_limits<int>::max()) {
      return absl::InvalidArgumentError(
          absl::StrCat("kernel '", name, "' asks for ", bytes, " bytes of shared memory"));
    }
    if (absl::Status s =
            d.Check(d.FuncSetAttribute(module->kernels_[name],
                                       drv::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                       static_cast<int>(bytes)),
                    absl::StrCat("kernel '", name, "': allowing ", bytes,
                                 " bytes of dynamic shared memory"));
        !s.ok()) {
      return s;
    }
  }
  return module;
}

CudaLoadedModule::~CudaLoadedModule() {
  if (module_ != nullptr && device_->MakeCurrent().ok()) {
    (void)device_->driver().ModuleUnload(module_);
  }
}

absl::StatusOr<CudaFunction> CudaLoadedModule::GetFunction(std::string_view name) const {
  for (const CudaHostFunction& fn : image_.functions) {
    if (fn.signature.name == name) return CudaFunction(shared_from_this(), &fn);
  }
  return absl::NotFoundError(absl::StrCat("CUDA module has no function '", std::string(name),
                                          "' (it has: ", absl::StrJoin(FunctionNames(), ", "),
                                          ")"));
}

std::vector<std::string> CudaLoadedModule::FunctionNames() const {
  std::vector<std::string> names;
  for (const CudaHostFunction& fn : image_.functions) names.push_back(fn.signature.name);
  return names;
}

absl::Status CudaFunction::Prepare(absl::Span<const PackedArg> args, bool copy_to_device,
                                   Prepared* out) const {
  const FunctionSignature& sig = function_->signature;
  std::vector<TFValue> values(args.size());
  std::vector<int32_t> codes(args.size());
  for (size_t i = 0; i < args.size(); ++i) {
    std::visit(ToValue{&values[i], &codes[i]}, args[i].value());
  }
  // Device tensors are checked as host views of themselves (shape, dtype, alignment): the
  // argument checker speaks for CPU kernels, and where the bytes live is this call's concern.
  std::vector<DLTensor> views;
  views.reserve(args.size());
  std::vector<TFValue> checked = values;
  for (size_t i = 0; i < args.size() && !copy_to_device; ++i) {
    if (codes[i] != kTFArgTensor) continue;
    const auto* t = static_cast<const DLTensor*>(values[i].v_handle);
    if (t != nullptr &&
        (t->device.device_type != kDLCUDA || t->device.device_id != module_->device_->ordinal())) {
      return absl::InvalidArgumentError(absl::StrCat("kernel '", sig.name, "': argument ", i,
                                                     " is not a tensor on CUDA device ",
                                                     module_->device_->ordinal()));
    }
    if (t == nullptr) continue;
    views.push_back(*t);
    views.back().device = DLDevice{kDLCPU, 0};
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

  const CudaDevice& device = *module_->device_;
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

  for (const CudaLaunch& launch : function_->launches) {
    Prepared::Launch& l = out->launches.emplace_back();
    l.function = module_->kernels_.at(launch.kernel);
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
      (axis < 3 ? l.grid[axis] : l.block[axis - 3]) = static_cast<unsigned int>(*v);
    }
    if (launch.dynamic_shared_bytes < 0 ||
        launch.dynamic_shared_bytes > std::numeric_limits<unsigned int>::max()) {
      return absl::InvalidArgumentError(where("bad dynamic shared memory size"));
    }
    l.shared_bytes = static_cast<unsigned int>(launch.dynamic_shared_bytes);
    l.slots.assign(launch.params.size(), 0);
    for (size_t p = 0; p < launch.params.size(); ++p) {
      const KernelParam& param = launch.params[p];
      if (param.kind == KernelParam::Kind::kPointer) {
        auto it = tensor_index.find(param.name);
        if (it == tensor_index.end()) {
          return absl::InvalidArgumentError(
              where(absl::StrCat("pointer parameter '", param.name, "' is not a tensor argument")));
        }
        const drv::CUdeviceptr ptr =
            copy_to_device ? out->device[it->second].ptr()
                           : reinterpret_cast<drv::CUdeviceptr>(out->host[it->second]->data) +
                                 out->host[it->second]->byte_offset;
        std::memcpy(&l.slots[p], &ptr, sizeof(ptr));
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
        auto v32 = static_cast<int32_t>(it->second);
        std::memcpy(&l.slots[p], &v32, sizeof(v32));
      } else {
        std::memcpy(&l.slots[p], &it->second, sizeof(int64_t));
      }
    }
    for (uint64_t& slot : l.slots) l.params.push_back(&slot);
  }
  return absl::OkStatus();
}

absl::Status CudaFunction::Launch(const Prepared& prepared) const {
  const CudaDriver& d = module_->device_->driver();
  for (size_t i = 0; i < prepared.launches.size(); ++i) {
    const Prepared::Launch& l = prepared.launches[i];
    drv::CUresult r = d.LaunchKernel(l.function, l.grid[0], l.grid[1], l.grid[2], l.block[0],
                                     l.block[1], l.block[2], l.shared_bytes, nullptr,
                                     const_cast<void**>(l.params.data()), nullptr);
    if (r != drv::CUDA_SUCCESS) {
      const CudaLaunch& launch = function_->launches[i];
      return d.Check(r, absl::StrCat("kernel '", signature().name, "': launching '", launch.kernel,
                                     "' with grid (", absl::StrJoin(l.grid, ", "), "), block (",
                                     absl::StrJoin(l.block, ", "), ")"));
    }
  }
  return absl::OkStatus();
}

absl::Status CudaFunction::CopyBack(const Prepared& prepared) const {
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

absl::Status CudaFunction::Call(absl::Span<const PackedArg> args) const {
  Prepared prepared;
  if (absl::Status s = Prepare(args, /*copy_to_device=*/true, &prepared); !s.ok()) return s;
  if (absl::Status s = Launch(prepared); !s.ok()) return s;
  return CopyBack(prepared);
}

absl::StatusOr<std::vector<double>> CudaFunction::Time(absl::Span<const PackedArg> args,
                                                       const TimeEvaluatorOptions& options) const {
  if (options.number < 1 || options.repeat < 1 || options.warmup < 0) {
    return absl::InvalidArgumentError(absl::StrCat("bad timing options: number ", options.number,
                                                   ", repeat ", options.repeat, ", warmup ",
                                                   options.warmup));
  }
  Prepared prepared;
  if (absl::Status s = Prepare(args, /*copy_to_device=*/true, &prepared); !s.ok()) return s;
  const CudaDriver& d = module_->device_->driver();
  // Two events bracket each repeat; they are destroyed on every path out.
  drv::CUevent events[2] = {nullptr, nullptr};
  auto destroy = [&] {
    for (drv::CUevent& e : events) {
      if (e != nullptr) (void)d.EventDestroy(e);
      e = nullptr;
    }
  };
  auto fail = [&](absl::Status s) {
    destroy();
    return s;
  };
  for (drv::CUevent& e : events) {
    if (absl::Status s = d.Check(d.EventCreate(&e, 0), "cuEventCreate"); !s.ok()) {
      return fail(s);
    }
  }
  for (int i = 0; i < options.warmup; ++i) {
    if (absl::Status s = Launch(prepared); !s.ok()) return fail(s);
  }
  std::vector<double> seconds;
  int number = options.number;
  while (static_cast<int>(seconds.size()) < options.repeat) {
    if (options.cooldown_ms > 0 && !seconds.empty()) {
      std::this_thread::sleep_for(std::chrono::duration<double, std::milli>(options.cooldown_ms));
    }
    if (absl::Status s = d.Check(d.EventRecord(events[0], nullptr), "cuEventRecord"); !s.ok()) {
      return fail(s);
    }
    for (int i = 0; i < number; ++i) {
      if (absl::Status s = Launch(prepared); !s.ok()) return fail(s);
    }
    float ms = 0;
    absl::Status s = d.Check(d.EventRecord(events[1], nullptr), "cuEventRecord");
    if (s.ok()) s = d.Check(d.EventSynchronize(events[1]), "cuEventSynchronize");
    if (s.ok()) s = d.Check(d.EventElapsedTime(&ms, events[0], events[1]), "cuEventElapsedTime");
    if (!s.ok()) return fail(s);
    if (ms < options.min_repeat_ms && number < (1 << 24)) {
      // Too short to trust: rerun with enough calls to reach min_repeat_ms (later repeats keep
      // the larger number so every sample averages the same count).
      double scale = ms > 0 ? options.min_repeat_ms / ms * 1.2 : 10.0;
      number = static_cast<int>(std::min<double>(number * std::max(scale, 2.0), 1 << 24));
      seconds.clear();
      continue;
    }
    seconds.push_back(ms * 1e-3 / number);
  }
  destroy();
  if (absl::Status s = CopyBack(prepared); !s.ok()) return s;
  return seconds;
}

absl::StatusOr<CudaDeviceCall> CudaFunction::PrepareDeviceCall(
    absl::Span<const PackedArg> args) const {
  auto prepared = std::make_unique<Prepared>();
  if (absl::Status s = Prepare(args, /*copy_to_device=*/false, prepared.get()); !s.ok()) return s;
  return CudaDeviceCall(*this, std::move(prepared));
}

CudaDeviceCall::CudaDeviceCall(CudaFunction function,
                               std::unique_ptr<CudaFunction::Prepared> prepared)
    : function_(std::move(function)), prepared_(std::move(prepared)) {}
CudaDeviceCall::CudaDeviceCall(CudaDeviceCall&&) noexcept = default;
CudaDeviceCall& CudaDeviceCall::operator=(CudaDeviceCall&&) noexcept = default;
CudaDeviceCall::~CudaDeviceCall() = default;

absl::Status CudaDeviceCall::Launch() const { return function_.Launch(*prepared_); }

}  // namespace tunefarm::runtime::cuda
