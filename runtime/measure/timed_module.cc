#include "runtime/measure/timed_module.h"

#include <optional>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "runtime/core/c_abi.h"
#include "runtime/core/library_loader.h"
#include "runtime/graph/graph_executor.h"
#include "runtime/measure/kernel_arguments.h"
#include "runtime/measure/measured_kernel.h"
#include "runtime/measure/random_fill.h"
#include "runtime/ndarray.h"
#include "runtime/signature_text.h"

namespace tunefarm::runtime::measure {
namespace {

class TimedKernel final : public TimedModule {
 public:
  TimedKernel(std::string path, MeasuredKernel kernel, KernelArguments args)
      : path_(std::move(path)), kernel_(std::move(kernel)), args_(std::move(args)) {
    packed_ = args_.Pack();
  }
  absl::Status Run() override { return kernel_.Call(packed_); }
  std::string Describe() const override {
    return absl::StrCat("kernel ", kernel_.signature().name, " of ", path_);
  }
  std::string Interface() const override { return SignatureText(kernel_.signature()); }

 private:
  std::string path_;
  MeasuredKernel kernel_;
  KernelArguments args_;
  std::vector<PackedArg> packed_;
};

class TimedGraph final : public TimedModule {
 public:
  TimedGraph(std::string path, std::unique_ptr<GraphExecutor> graph)
      : path_(std::move(path)), graph_(std::move(graph)) {}
  absl::Status Run() override {
    std::string error;
    if (!graph_->Run(&error)) return absl::InternalError(absl::StrCat(path_, ": ", error));
    return absl::OkStatus();
  }
  std::string Describe() const override {
    return absl::StrCat("model of ", path_, " (", graph_->num_steps(), " steps)");
  }
  std::string Interface() const override {
    std::vector<std::string> parts;
    for (const auto* list : {&graph_->inputs(), &graph_->outputs()}) {
      for (const GraphTensorInfo& t : *list) {
        parts.push_back(absl::StrCat(t.name, "[", absl::StrJoin(t.shape, ","), "]"));
      }
      parts.push_back("->");
    }
    parts.pop_back();
    return absl::StrJoin(parts, " ");
  }

 private:
  std::string path_;
  std::unique_ptr<GraphExecutor> graph_;
};

absl::StatusOr<bool> IsModelModule(const std::string& path) {
  std::string error;
  std::unique_ptr<LoadedLibrary> library = LoadedLibrary::Open(path, &error);
  if (library == nullptr) return absl::InvalidArgumentError(error);
  return library->FindSymbol(TF_GRAPH_SYMBOL) != nullptr;
}

absl::StatusOr<std::unique_ptr<TimedModule>> LoadGraph(const std::string& path, uint64_t seed) {
  std::string error;
  std::unique_ptr<GraphExecutor> graph = GraphExecutor::Load(path, &error);
  if (graph == nullptr) return absl::InvalidArgumentError(error);
  for (int i = 0; i < static_cast<int>(graph->inputs().size()); ++i) {
    const GraphTensorInfo& in = graph->inputs()[i];
    absl::StatusOr<NDArray> values = NDArray::Empty(in.shape, in.dtype);
    if (!values.ok()) return values.status();
    FillSeededRandom(*values, seed + static_cast<uint64_t>(i));
    if (!graph->SetInput(i, values->dl()->data, in.bytes, &error)) {
      return absl::InvalidArgumentError(absl::StrCat(path, ": ", error));
    }
  }
  return std::unique_ptr<TimedModule>(new TimedGraph(path, std::move(graph)));
}

}  // namespace

absl::StatusOr<std::unique_ptr<TimedModule>> TimedModule::Load(
    const std::string& path, const std::string& function,
    const std::map<std::string, int64_t>& bindings, uint64_t seed) {
  if (!IsGpuModuleFile(path)) {
    absl::StatusOr<bool> model = IsModelModule(path);
    if (!model.ok()) return model.status();
    if (*model) return LoadGraph(path, seed);
  }
  absl::StatusOr<MeasuredKernel> kernel = MeasuredKernel::Load(path, function);
  if (!kernel.ok()) return kernel.status();
  absl::StatusOr<KernelArguments> args = KernelArguments::Make(kernel->signature(), bindings, seed);
  if (!args.ok()) {
    return absl::InvalidArgumentError(absl::StrCat(path, ": ", args.status().message()));
  }
  return std::unique_ptr<TimedModule>(new TimedKernel(path, *std::move(kernel), *std::move(args)));
}

}  // namespace tunefarm::runtime::measure
