#include "driver/model_executor.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "runtime/core/c_abi.h"
#include "runtime/core/library_loader.h"
#include "runtime/graph/gpu/gpu_graph_executor.h"
#include "runtime/ndarray.h"

namespace tunefarm::driver {
namespace {

class CpuModelExecutor : public ModelExecutor {
 public:
  explicit CpuModelExecutor(std::unique_ptr<runtime::GraphExecutor> executor)
      : executor_(std::move(executor)) {}

  const std::vector<runtime::GraphTensorInfo>& inputs() const override {
    return executor_->inputs();
  }
  const std::vector<runtime::GraphTensorInfo>& outputs() const override {
    return executor_->outputs();
  }
  absl::Status SetInput(int index, const void* data, size_t bytes) override {
    std::string error;
    if (!executor_->SetInput(index, data, bytes, &error)) {
      return absl::InvalidArgumentError(error);
    }
    return absl::OkStatus();
  }
  absl::Status Run() override {
    std::string error;
    return executor_->Run(&error) ? absl::OkStatus() : absl::InternalError(error);
  }
  absl::Status RunProfiled(std::vector<double>* step_ms) override {
    std::string error;
    return executor_->RunProfiled(step_ms, &error) ? absl::OkStatus() : absl::InternalError(error);
  }
  int num_steps() const override { return executor_->num_steps(); }
  const std::string& step_kernel(int step) const override { return executor_->step_kernel(step); }
  absl::StatusOr<const DLTensor*> Output(int index) override {
    const DLTensor* t = executor_->GetOutput(index);
    if (t == nullptr) return absl::InvalidArgumentError(absl::StrCat("no output ", index));
    return t;
  }
  std::string device() const override { return "cpu"; }

 private:
  std::unique_ptr<runtime::GraphExecutor> executor_;
};

class GpuModelExecutor : public ModelExecutor {
 public:
  explicit GpuModelExecutor(std::unique_ptr<runtime::gpu::GpuGraphExecutor> executor)
      : executor_(std::move(executor)) {}

  const std::vector<runtime::GraphTensorInfo>& inputs() const override {
    return executor_->inputs();
  }
  const std::vector<runtime::GraphTensorInfo>& outputs() const override {
    return executor_->outputs();
  }
  absl::Status SetInput(int index, const void* data, size_t bytes) override {
    return executor_->SetInput(index, data, bytes);
  }
  absl::Status Run() override { return executor_->Run(); }
  absl::Status RunProfiled(std::vector<double>* step_ms) override {
    return executor_->RunProfiled(step_ms);
  }
  int num_steps() const override { return executor_->num_steps(); }
  const std::string& step_kernel(int step) const override { return executor_->step_kernel(step); }
  absl::StatusOr<const DLTensor*> Output(int index) override {
    if (index < 0 || index >= static_cast<int>(outputs().size())) {
      return absl::InvalidArgumentError(absl::StrCat("no output ", index));
    }
    if (host_.empty()) host_.resize(outputs().size());
    const runtime::GraphTensorInfo& info = outputs()[index];
    if (!host_[index].defined()) {
      absl::StatusOr<runtime::NDArray> a = runtime::NDArray::Empty(info.shape, info.dtype);
      if (!a.ok()) return a.status();
      host_[index] = *std::move(a);
    }
    if (absl::Status s = executor_->CopyOutput(index, host_[index].data(), info.bytes); !s.ok()) {
      return s;
    }
    return host_[index].dl();
  }
  std::string device() const override { return executor_->device().attributes().name; }

 private:
  std::unique_ptr<runtime::gpu::GpuGraphExecutor> executor_;
  std::vector<runtime::NDArray> host_;
};

}  // namespace

int ModelExecutor::InputIndex(std::string_view name) const {
  return runtime::IndexOfTensor(inputs(), name);
}

absl::StatusOr<std::unique_ptr<ModelExecutor>> OpenModelModule(const std::string& path) {
  std::string error;
  bool gpu = false;
  {
    std::unique_ptr<runtime::LoadedLibrary> library = runtime::LoadedLibrary::Open(path, &error);
    if (library == nullptr) return absl::InvalidArgumentError(error);
    gpu = library->FindSymbol(TF_GPU_MODULE_SYMBOL) != nullptr;
  }
  if (gpu) {
    absl::StatusOr<std::unique_ptr<runtime::gpu::GpuGraphExecutor>> executor =
        runtime::gpu::GpuGraphExecutor::Load(path);
    if (!executor.ok()) return executor.status();
    return std::make_unique<GpuModelExecutor>(*std::move(executor));
  }
  std::unique_ptr<runtime::GraphExecutor> executor = runtime::GraphExecutor::Load(path, &error);
  if (executor == nullptr) return absl::InvalidArgumentError(error);
  return std::make_unique<CpuModelExecutor>(std::move(executor));
}

}  // namespace tunefarm::driver
