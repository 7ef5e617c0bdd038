#include "runtime/graph/gpu/gpu_graph_executor.h"

#include <algorithm>
#include <cstring>
#include <utility>

#include "absl/strings/str_cat.h"
#include "runtime/core/argument_check.h"
#include "runtime/core/c_abi.h"
#include "runtime/devices/process_gpu.h"
#include "runtime/gpu/gpu_module.h"

namespace tunefarm::runtime::gpu {
GpuGraphExecutor::~GpuGraphExecutor() = default;

absl::Status GpuGraphExecutor::CheckSteps(const GpuModuleImage& image) const {
  // The tensors point at a placeholder while they are checked: nothing of the graph's claimed
  // size exists yet, and the checks look at the pointer's alignment only.
  alignas(kTensorAlignment) static unsigned char placeholder[kTensorAlignment];
  std::vector<DLTensor> tensors(graph_.tensors.size());
  for (size_t i = 0; i < graph_.tensors.size(); ++i) {
    const GraphTensor& t = graph_.tensors[i];
    tensors[i] = DLTensor{};
    tensors[i].data = placeholder;
    tensors[i].device = DLDevice{kDLCPU, 0};
    tensors[i].ndim = static_cast<int32_t>(t.shape.size());
    tensors[i].dtype = t.dtype;
    tensors[i].shape = const_cast<int64_t*>(t.shape.data());
  }
  for (size_t s = 0; s < graph_.steps.size(); ++s) {
    const GraphStep& step = graph_.steps[s];
    const std::string where =
        absl::StrCat("graph line ", step.line, ": step ", s, " (", step.kernel, "): ");
    const GpuHostFunction* function = nullptr;
    for (const GpuHostFunction& f : image.functions) {
      if (f.signature.name == step.kernel) function = &f;
    }
    if (function == nullptr) {
      return absl::InvalidArgumentError(where + "the GPU module has no kernel '" + step.kernel +
                                        "'");
    }
    std::vector<TFValue> values(step.args.size());
    std::vector<int32_t> codes(step.args.size());
    for (size_t a = 0; a < step.args.size(); ++a) {
      const StepArg& arg = step.args[a];
      switch (arg.kind) {
        case StepArgKind::kIn:
        case StepArgKind::kOut:
          values[a].v_handle = &tensors[arg.value];
          codes[a] = kTFArgTensor;
          break;
        case StepArgKind::kInt:
          values[a].v_int64 = arg.value;
          codes[a] = kTFArgInt;
          break;
        case StepArgKind::kFloat:
          values[a].v_float64 = arg.float_value;
          codes[a] = kTFArgFloat;
          break;
      }
    }
    const std::string bad = CheckArguments(function->signature, values.data(), codes.data(),
                                           static_cast<int32_t>(values.size()));
    if (!bad.empty()) return absl::InvalidArgumentError(where + bad);
  }
  return absl::OkStatus();
}

absl::StatusOr<std::unique_ptr<GpuGraphExecutor>> GpuGraphExecutor::Load(
    const std::string& path, const GraphLoadOptions& options) {
  std::string error;
  std::unique_ptr<LoadedLibrary> library = LoadedLibrary::Open(path, &error);
  if (library == nullptr) return absl::InvalidArgumentError(error);
  const std::string quoted = "'" + path + "'";
  const auto* text = static_cast<const char*>(library->FindSymbol(TF_GRAPH_SYMBOL));
  const auto* module = static_cast<const char*>(library->FindSymbol(TF_GPU_MODULE_SYMBOL));
  const auto* params = static_cast<const unsigned char*>(library->FindSymbol(TF_PARAMS_SYMBOL));
  const auto* params_size =
      static_cast<const uint64_t*>(library->FindSymbol(TF_PARAMS_SIZE_SYMBOL));
  if (text == nullptr || module == nullptr || params == nullptr || params_size == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat(quoted, " is not a GPU model module: it must define " TF_GRAPH_SYMBOL ", ",
                     TF_GPU_MODULE_SYMBOL ", " TF_PARAMS_SYMBOL " and " TF_PARAMS_SIZE_SYMBOL));
  }
  std::unique_ptr<GpuGraphExecutor> executor(new GpuGraphExecutor());
  std::string what;
  // Bounded, so a symbol without its NUL is refused rather than read past.
  const size_t length = strnlen(text, options.limits.max_text_bytes + 1);
  if (!ParseGraph(std::string_view(text, length), *params_size, &executor->graph_, &what,
                  options.limits)) {
    return absl::InvalidArgumentError(absl::StrCat(quoted, ": ", what));
  }
  const size_t module_length = strnlen(module, options.limits.max_text_bytes + 1);
  if (module_length > options.limits.max_text_bytes) {
    return absl::InvalidArgumentError(
        absl::StrCat(quoted, ": the GPU module is over ", options.limits.max_text_bytes, " bytes"));
  }
  executor->library_ = std::move(library);
  if (absl::Status s = executor->Prepare(params, std::string(module, module_length), options);
      !s.ok()) {
    return absl::Status(s.code(), absl::StrCat(quoted, ": ", s.message()));
  }
  return executor;
}

absl::Status GpuGraphExecutor::Prepare(const unsigned char* params, const std::string& module_text,
                                       const GraphLoadOptions& options) {
  absl::StatusOr<GpuModuleImage> image = ParseGpuModule(module_text);
  if (!image.ok()) return image.status();
  // Everything the file says is checked before any device memory is allocated: each step against
  // its kernel's signature, then the arena's size.
  if (absl::Status s = CheckSteps(*image); !s.ok()) return s;
  absl::StatusOr<std::shared_ptr<GpuDevice>> device = devices::ProcessGpuDevice(image->api);
  if (!device.ok()) return device.status();
  device_ = *std::move(device);
  // Tensors are views into two buffers; an OpenCL view's offset must be a multiple of the
  // device's base alignment (128 bytes on PoCL and most Mali GPUs), so the arena and the weights
  // are laid out at that alignment.
  const uint64_t alignment =
      (std::max<uint64_t>(kArenaAlignment, device_->attributes().view_alignment_bytes) +
       kArenaAlignment - 1) /
      kArenaAlignment * kArenaAlignment;
  std::vector<size_t> planned;
  std::vector<BufferLifetime> buffers = ArenaBuffers(graph_, &planned);
  MemoryPlan plan;
  std::string what;
  if (!PlanMemory(buffers, &plan, &what, alignment)) return absl::InvalidArgumentError(what);
  memory_stats_ = plan.stats;
  if (plan.stats.arena_bytes > options.max_arena_bytes) {
    return absl::ResourceExhaustedError(absl::StrCat("the graph needs a ", plan.stats.arena_bytes,
                                                     "-byte arena, more than the limit of ",
                                                     options.max_arena_bytes, " bytes"));
  }
  absl::StatusOr<std::shared_ptr<GpuLoadedModule>> module =
      GpuLoadedModule::Load(device_, *std::move(image));
  if (!module.ok()) return module.status();
  module_ = *std::move(module);
  absl::StatusOr<DeviceBuffer> arena = device_->Allocate(plan.stats.arena_bytes);
  if (!arena.ok()) return arena.status();
  arena_ = *std::move(arena);
  // The weights, each at an aligned offset of its own (the file packs them tighter).
  std::vector<uint64_t> param_offsets(graph_.tensors.size(), 0);
  uint64_t params_bytes = 0;
  for (size_t i = 0; i < graph_.tensors.size(); ++i) {
    const GraphTensor& t = graph_.tensors[i];
    if (t.kind != GraphTensorKind::kParam) continue;
    param_offsets[i] = params_bytes;
    params_bytes += (t.bytes + alignment - 1) / alignment * alignment;
  }
  absl::StatusOr<DeviceBuffer> weights = device_->Allocate(params_bytes);
  if (!weights.ok()) return weights.status();
  params_ = *std::move(weights);
  for (size_t i = 0; i < graph_.tensors.size(); ++i) {
    const GraphTensor& t = graph_.tensors[i];
    if (t.kind != GraphTensorKind::kParam || t.bytes == 0) continue;
    if (absl::Status s = params_.CopyFromHost(params + t.param_offset, t.bytes, param_offsets[i]);
        !s.ok()) {
      return s;
    }
  }

  tensors_.resize(graph_.tensors.size());
  for (size_t i = 0; i < graph_.tensors.size(); ++i) {
    GraphTensor& t = graph_.tensors[i];
    DLTensor& d = tensors_[i];
    d = DLTensor{};
    d.device = DLDevice{static_cast<DLDeviceType>(device_->dl_device_type()), device_->ordinal()};
    d.ndim = static_cast<int32_t>(t.shape.size());
    d.dtype = t.dtype;
    d.shape = t.shape.data();
    if (t.kind == GraphTensorKind::kParam) {
      d.data = reinterpret_cast<void*>(params_.handle());
      d.byte_offset = param_offsets[i];
    } else if (t.kind == GraphTensorKind::kInput) {
      inputs_.push_back(GraphTensorInfo{t.name, t.dtype, t.shape, t.bytes});
      input_ids_.push_back(static_cast<int64_t>(i));
    } else if (t.kind == GraphTensorKind::kOutput) {
      outputs_.push_back(GraphTensorInfo{t.name, t.dtype, t.shape, t.bytes});
      output_ids_.push_back(static_cast<int64_t>(i));
    }
  }
  for (size_t k = 0; k < planned.size(); ++k) {
    tensors_[planned[k]].data = reinterpret_cast<void*>(arena_.handle());
    tensors_[planned[k]].byte_offset = plan.offsets[k];
  }
  for (size_t s = 0; s < graph_.steps.size(); ++s) {
    const GraphStep& step = graph_.steps[s];
    const std::string where =
        absl::StrCat("graph line ", step.line, ": step ", s, " (", step.kernel, "): ");
    absl::StatusOr<GpuFunction> function = module_->GetFunction(step.kernel);
    if (!function.ok())
      return absl::InvalidArgumentError(where + std::string(function.status().message()));
    std::vector<PackedArg> args;
    for (const StepArg& arg : step.args) {
      switch (arg.kind) {
        case StepArgKind::kIn:
        case StepArgKind::kOut:
          args.emplace_back(&tensors_[arg.value]);
          break;
        case StepArgKind::kInt:
          args.emplace_back(arg.value);
          break;
        case StepArgKind::kFloat:
          args.emplace_back(arg.float_value);
          break;
      }
    }
    absl::StatusOr<GpuDeviceCall> call = function->PrepareDeviceCall(args);
    if (!call.ok()) {
      return absl::Status(call.status().code(), where + std::string(call.status().message()));
    }
    calls_.push_back(*std::move(call));
  }
  // Inputs start as zeros, so a run before SetInput is deterministic.
  for (int64_t id : input_ids_) {
    const std::vector<char> zeros(graph_.tensors[id].bytes, 0);
    if (absl::Status s = arena_.CopyFromHost(zeros.data(), zeros.size(), tensors_[id].byte_offset);
        !s.ok()) {
      return absl::Status(
          s.code(), absl::StrCat("zeroing input '", graph_.tensors[id].name, "': ", s.message()));
    }
  }
  return absl::OkStatus();
}

int GpuGraphExecutor::InputIndex(std::string_view name) const {
  return IndexOfTensor(inputs_, name);
}

int GpuGraphExecutor::OutputIndex(std::string_view name) const {
  return IndexOfTensor(outputs_, name);
}

absl::Status GpuGraphExecutor::SetInput(std::string_view name, const void* data, size_t bytes) {
  const int index = InputIndex(name);
  if (index < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("the model has no input named '", std::string(name), "'"));
  }
  return SetInput(index, data, bytes);
}

absl::Status GpuGraphExecutor::SetInput(int index, const void* data, size_t bytes) {
  if (index < 0 || index >= static_cast<int>(inputs_.size())) {
    return absl::InvalidArgumentError(absl::StrCat("no input ", index));
  }
  if (bytes != inputs_[index].bytes) {
    return absl::InvalidArgumentError(absl::StrCat("input '", inputs_[index].name, "' holds ",
                                                   inputs_[index].bytes, " bytes, not ", bytes));
  }
  absl::Status s = arena_.CopyFromHost(data, bytes, tensors_[input_ids_[index]].byte_offset);
  if (s.ok()) return s;
  return absl::Status(s.code(), absl::StrCat("copying input '", inputs_[index].name,
                                             "' to the device: ", s.message()));
}

absl::Status GpuGraphExecutor::Run() {
  for (size_t i = 0; i < calls_.size(); ++i) {
    if (absl::Status s = calls_[i].Launch(); !s.ok()) {
      return absl::Status(s.code(),
                          absl::StrCat("graph line ", graph_.steps[i].line, ": ", s.message()));
    }
  }
  return device_->Synchronize();
}

absl::Status GpuGraphExecutor::RunProfiled(std::vector<double>* step_ms) {
  step_ms->resize(calls_.size());
  for (size_t i = 0; i < calls_.size(); ++i) {
    absl::StatusOr<double> seconds = device_->TimeQueued([&] { return calls_[i].Launch(); });
    if (!seconds.ok()) {
      return absl::Status(seconds.status().code(), absl::StrCat("graph line ", graph_.steps[i].line,
                                                                ": ", seconds.status().message()));
    }
    (*step_ms)[i] = *seconds * 1e3;
  }
  return absl::OkStatus();
}

absl::Status GpuGraphExecutor::CopyOutput(int index, void* data, size_t bytes) const {
  if (index < 0 || index >= static_cast<int>(outputs_.size())) {
    return absl::InvalidArgumentError(absl::StrCat("no output ", index));
  }
  if (bytes != outputs_[index].bytes) {
    return absl::InvalidArgumentError(absl::StrCat("output '", outputs_[index].name, "' holds ",
                                                   outputs_[index].bytes, " bytes, not ", bytes));
  }
  absl::Status s = arena_.CopyToHost(data, bytes, tensors_[output_ids_[index]].byte_offset);
  if (s.ok()) return s;
  return absl::Status(s.code(), absl::StrCat("copying output '", outputs_[index].name,
                                             "' from the device: ", s.message()));
}

}  // namespace tunefarm::runtime::gpu
