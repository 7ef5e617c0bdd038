#include "runtime/graph/graph_executor.h"

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <utility>

#include "runtime/core/argument_check.h"
#include "runtime/core/huge_page_buffer.h"

namespace tunefarm::runtime {
namespace {

// Where tensors point while their calls are checked, before anything is allocated: the checks
// look at the pointer's alignment only.
alignas(kTensorAlignment) unsigned char kCheckPlaceholder[kTensorAlignment];

GraphTensorInfo InfoOf(const GraphTensor& t) {
  return GraphTensorInfo{t.name, t.dtype, t.shape, t.bytes};
}

}  // namespace

void GraphExecutor::FreeDeleter::operator()(void* p) const { std::free(p); }

GraphExecutor::~GraphExecutor() = default;

std::unique_ptr<GraphExecutor> GraphExecutor::Load(const std::string& path, std::string* error,
                                                   const GraphLoadOptions& options) {
  std::unique_ptr<LoadedLibrary> library = LoadedLibrary::Open(path, error);
  if (library == nullptr) return nullptr;
  const std::string quoted = "'" + path + "'";
  const auto* text = static_cast<const char*>(library->FindSymbol(TF_GRAPH_SYMBOL));
  if (text == nullptr) {
    *error = quoted + " is a kernel library, not a model module: it defines no " TF_GRAPH_SYMBOL;
    return nullptr;
  }
  const auto* params = static_cast<const unsigned char*>(library->FindSymbol(TF_PARAMS_SYMBOL));
  const auto* params_size =
      static_cast<const uint64_t*>(library->FindSymbol(TF_PARAMS_SIZE_SYMBOL));
  if ((params == nullptr) != (params_size == nullptr)) {
    *error = quoted + ": a model module defines both " TF_PARAMS_SYMBOL
                      " and " TF_PARAMS_SIZE_SYMBOL ", or neither";
    return nullptr;
  }
  // Bounded, so a graph symbol without its NUL is refused rather than read past.
  size_t length = strnlen(text, options.limits.max_text_bytes + 1);
  std::unique_ptr<GraphExecutor> executor(new GraphExecutor());
  std::string what;
  if (!ParseGraph(std::string_view(text, length), params_size ? *params_size : 0, &executor->graph_,
                  &what, options.limits)) {
    *error = quoted + ": " + what;
    return nullptr;
  }
  executor->library_ = std::move(library);
  what = executor->PrepareCalls();
  if (what.empty()) what = executor->PlanAndAllocate(options);
  if (what.empty()) what = executor->BindParams(params);
  if (!what.empty()) {
    *error = quoted + ": " + what;
    return nullptr;
  }
  return executor;
}

// Builds every call's arguments once and checks them against the kernel's signature, with the
// tensors pointing at a placeholder: nothing of the graph's claimed size exists yet.
std::string GraphExecutor::PrepareCalls() {
  tensors_.resize(graph_.tensors.size());
  for (size_t i = 0; i < graph_.tensors.size(); ++i) {
    GraphTensor& t = graph_.tensors[i];
    DLTensor& d = tensors_[i];
    d = DLTensor{};
    d.data = kCheckPlaceholder;
    d.device = DLDevice{kDLCPU, 0};
    d.ndim = static_cast<int32_t>(t.shape.size());
    d.dtype = t.dtype;
    d.shape = t.shape.data();
    d.strides = nullptr;  // compact row-major
    d.byte_offset = 0;
    if (t.kind == GraphTensorKind::kInput) {
      inputs_.push_back(InfoOf(t));
      input_ids_.push_back(static_cast<int64_t>(i));
    } else if (t.kind == GraphTensorKind::kOutput) {
      outputs_.push_back(InfoOf(t));
      output_ids_.push_back(static_cast<int64_t>(i));
    }
  }
  size_t total_args = 0;
  for (const GraphStep& step : graph_.steps) total_args += step.args.size();
  values_.resize(total_args);
  codes_.resize(total_args);
  calls_.reserve(graph_.steps.size());
  int32_t next = 0;
  for (size_t s = 0; s < graph_.steps.size(); ++s) {
    const GraphStep& step = graph_.steps[s];
    const std::string where = "graph line " + std::to_string(step.line) + ": step " +
                              std::to_string(s) + " (" + step.kernel + "): ";
    const LoadedKernel* kernel = library_->Find(step.kernel);
    if (kernel == nullptr) return where + "the module has no kernel '" + step.kernel + "'";
    Call call{kernel->entry, next, static_cast<int32_t>(step.args.size()), step.line};
    for (const StepArg& arg : step.args) {
      TFValue& v = values_[next];
      int32_t& code = codes_[next];
      ++next;
      switch (arg.kind) {
        case StepArgKind::kIn:
        case StepArgKind::kOut:
          v.v_handle = &tensors_[arg.value];
          code = kTFArgTensor;
          break;
        case StepArgKind::kInt:
          v.v_int64 = arg.value;
          code = kTFArgInt;
          break;
        case StepArgKind::kFloat:
          v.v_float64 = arg.float_value;
          code = kTFArgFloat;
          break;
      }
    }
    std::string bad = CheckArguments(kernel->signature, &values_[call.first_arg],
                                     &codes_[call.first_arg], call.num_args);
    if (!bad.empty()) return where + bad;
    calls_.push_back(call);
  }
  return "";
}

std::string GraphExecutor::PlanAndAllocate(const GraphLoadOptions& options) {
  std::vector<size_t> planned;  // tensor ids in the arena
  std::vector<BufferLifetime> buffers = ArenaBuffers(graph_, &planned);
  MemoryPlan plan;
  std::string what;
  if (!PlanMemory(buffers, &plan, &what)) return what;
  memory_stats_ = plan.stats;
  if (plan.stats.arena_bytes > options.max_arena_bytes) {
    return "the graph needs a " + std::to_string(plan.stats.arena_bytes) +
           "-byte arena, more than the limit of " + std::to_string(options.max_arena_bytes) +
           " bytes";
  }
  uint64_t bytes = plan.stats.arena_bytes > 0 ? plan.stats.arena_bytes : kArenaAlignment;
  arena_.reset(static_cast<unsigned char*>(AllocateHugePageBuffer(bytes)));
  if (arena_ == nullptr) {
    return "cannot allocate the " + std::to_string(bytes) + "-byte arena";
  }
  // Only inputs are zeroed (a run before SetInput is deterministic); the parser guarantees every
  // other buffer is written before it is read, so untouched pages stay untouched.
  for (size_t k = 0; k < planned.size(); ++k) {
    tensors_[planned[k]].data = arena_.get() + plan.offsets[k];
    const GraphTensor& t = graph_.tensors[planned[k]];
    if (t.kind == GraphTensorKind::kInput) std::memset(tensors_[planned[k]].data, 0, t.bytes);
  }
  return "";
}

std::string GraphExecutor::BindParams(const unsigned char* params) {
  const uint64_t size = graph_.params_bytes;
  const unsigned char* base = params;
  if (size > 0 && reinterpret_cast<uintptr_t>(params) % kParamAlignment != 0) {
    // Kernels load aligned vectors: one aligned copy of the whole blob keeps offsets valid.
    uint64_t rounded = (size + kParamAlignment - 1) / kParamAlignment * kParamAlignment;
    params_copy_.reset(static_cast<unsigned char*>(std::aligned_alloc(kParamAlignment, rounded)));
    if (params_copy_ == nullptr) {
      return "cannot allocate " + std::to_string(rounded) + " bytes for an aligned params copy";
    }
    std::memcpy(params_copy_.get(), params, size);
    base = params_copy_.get();
  }
  for (size_t i = 0; i < graph_.tensors.size(); ++i) {
    const GraphTensor& t = graph_.tensors[i];
    if (t.kind != GraphTensorKind::kParam) continue;
    // Kernels never write params (the parser refuses an `out:` of one), so const is kept.
    tensors_[i].data = const_cast<unsigned char*>(base) + t.param_offset;
  }
  return "";
}

int IndexOfTensor(const std::vector<GraphTensorInfo>& tensors, std::string_view name) {
  for (size_t i = 0; i < tensors.size(); ++i) {
    if (tensors[i].name == name) return static_cast<int>(i);
  }
  return -1;
}

int GraphExecutor::InputIndex(std::string_view name) const { return IndexOfTensor(inputs_, name); }

int GraphExecutor::OutputIndex(std::string_view name) const {
  return IndexOfTensor(outputs_, name);
}

bool GraphExecutor::SetInput(std::string_view name, const void* data, size_t bytes,
                             std::string* error) {
  int index = InputIndex(name);
  if (index < 0) {
    if (error != nullptr) *error = "the model has no input named '" + std::string(name) + "'";
    return false;
  }
  return SetInput(index, data, bytes, error);
}

bool GraphExecutor::SetInput(int index, const void* data, size_t bytes, std::string* error) {
  if (index < 0 || static_cast<size_t>(index) >= inputs_.size()) {
    if (error != nullptr) *error = "input index " + std::to_string(index) + " is out of range";
    return false;
  }
  const GraphTensorInfo& info = inputs_[index];
  if (bytes != info.bytes) {
    if (error != nullptr) {
      *error = "input '" + info.name + "' takes " + std::to_string(info.bytes) + " bytes, got " +
               std::to_string(bytes);
    }
    return false;
  }
  std::memcpy(tensors_[input_ids_[index]].data, data, bytes);
  return true;
}

void* GraphExecutor::MutableInput(int index) {
  if (index < 0 || static_cast<size_t>(index) >= inputs_.size()) return nullptr;
  return tensors_[input_ids_[index]].data;
}

bool GraphExecutor::Run(std::string* error) { return RunImpl(error, nullptr); }

bool GraphExecutor::RunProfiled(std::vector<double>* step_ms, std::string* error) {
  step_ms->assign(calls_.size(), 0.0);
  return RunImpl(error, step_ms->data());
}

bool GraphExecutor::RunImpl(std::string* error, double* step_ms) {
  for (size_t s = 0; s < calls_.size(); ++s) {
    const Call& call = calls_[s];
    const auto start = step_ms != nullptr ? std::chrono::steady_clock::now()
                                          : std::chrono::steady_clock::time_point();
    int32_t rc = call.entry(&values_[call.first_arg], &codes_[call.first_arg], call.num_args);
    if (step_ms != nullptr) {
      step_ms[s] =
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
              .count();
    }
    if (rc != 0) {
      if (error != nullptr) {
        *error = "graph line " + std::to_string(call.graph_line) + ": step " + std::to_string(s) +
                 " (" + graph_.steps[s].kernel + ") returned " + std::to_string(rc);
      }
      return false;
    }
  }
  return true;
}

const DLTensor* GraphExecutor::GetOutput(std::string_view name) const {
  return GetOutput(OutputIndex(name));
}

const DLTensor* GraphExecutor::GetOutput(int index) const {
  if (index < 0 || static_cast<size_t>(index) >= outputs_.size()) return nullptr;
  return &tensors_[output_ids_[index]];
}

}  // namespace tunefarm::runtime
