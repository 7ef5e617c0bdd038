#include "runtime/graph/model_c_api.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <memory>
#include <string>

#include "runtime/core/thread_pool.h"
#include "runtime/graph/graph_executor.h"

struct TFModel {
  std::unique_ptr<tunefarm::runtime::GraphExecutor> executor;
};

namespace {

using tunefarm::runtime::GraphTensorInfo;

int32_t Fail(const std::string& message, char* error, size_t error_size) {
  if (error != nullptr && error_size > 0) {
    const size_t n = std::min(message.size(), error_size - 1);
    std::memcpy(error, message.data(), n);
    error[n] = '\0';
  }
  return 1;
}

int32_t Describe(const std::vector<GraphTensorInfo>& tensors, int32_t index, const char** name,
                 DLDataType* dtype, int32_t* ndim, const int64_t** shape) {
  if (index < 0 || index >= static_cast<int32_t>(tensors.size())) return 1;
  const GraphTensorInfo& t = tensors[index];
  if (name != nullptr) *name = t.name.c_str();
  if (dtype != nullptr) *dtype = t.dtype;
  if (ndim != nullptr) *ndim = static_cast<int32_t>(t.shape.size());
  if (shape != nullptr) *shape = t.shape.data();
  return 0;
}

std::string IndexError(const char* what, int32_t index, size_t count) {
  return std::string(what) + " " + std::to_string(index) + " does not exist (the model has " +
         std::to_string(count) + ")";
}

double Seconds(std::chrono::steady_clock::duration d) {
  return std::chrono::duration<double>(d).count();
}

}  // namespace

extern "C" {

int32_t TFModelLoad(const char* path, TFModel** model, char* error, size_t error_size) {
  if (path == nullptr || model == nullptr) return Fail("no path or no model", error, error_size);
  *model = nullptr;
  std::string message;
  auto executor = tunefarm::runtime::GraphExecutor::Load(path, &message);
  if (executor == nullptr) return Fail(message, error, error_size);
  *model = new TFModel{std::move(executor)};
  return 0;
}

void TFModelFree(TFModel* model) { delete model; }

int32_t TFModelNumInputs(const TFModel* model) {
  return model == nullptr ? 0 : static_cast<int32_t>(model->executor->inputs().size());
}

int32_t TFModelNumOutputs(const TFModel* model) {
  return model == nullptr ? 0 : static_cast<int32_t>(model->executor->outputs().size());
}

int32_t TFModelInputInfo(const TFModel* model, int32_t index, const char** name, DLDataType* dtype,
                         int32_t* ndim, const int64_t** shape) {
  return model == nullptr ? 1
                          : Describe(model->executor->inputs(), index, name, dtype, ndim, shape);
}

int32_t TFModelOutputInfo(const TFModel* model, int32_t index, const char** name, DLDataType* dtype,
                          int32_t* ndim, const int64_t** shape) {
  return model == nullptr ? 1
                          : Describe(model->executor->outputs(), index, name, dtype, ndim, shape);
}

int32_t TFModelSetInput(TFModel* model, int32_t index, const void* data, uint64_t bytes,
                        char* error, size_t error_size) {
  if (model == nullptr || data == nullptr) return Fail("no model or no data", error, error_size);
  const auto& inputs = model->executor->inputs();
  if (index < 0 || index >= static_cast<int32_t>(inputs.size())) {
    return Fail(IndexError("input", index, inputs.size()), error, error_size);
  }
  std::string message;
  if (!model->executor->SetInput(index, data, bytes, &message)) {
    return Fail(message, error, error_size);
  }
  return 0;
}

int32_t TFModelRun(TFModel* model, char* error, size_t error_size) {
  if (model == nullptr) return Fail("no model", error, error_size);
  std::string message;
  return model->executor->Run(&message) ? 0 : Fail(message, error, error_size);
}

int32_t TFModelGetOutput(const TFModel* model, int32_t index, void* data, uint64_t bytes,
                         char* error, size_t error_size) {
  if (model == nullptr || data == nullptr) return Fail("no model or no data", error, error_size);
  const auto& outputs = model->executor->outputs();
  if (index < 0 || index >= static_cast<int32_t>(outputs.size())) {
    return Fail(IndexError("output", index, outputs.size()), error, error_size);
  }
  if (bytes != outputs[index].bytes) {
    return Fail("output '" + outputs[index].name + "' has " + std::to_string(outputs[index].bytes) +
                    " bytes, not " + std::to_string(bytes),
                error, error_size);
  }
  const DLTensor* out = model->executor->GetOutput(index);
  std::memcpy(data, static_cast<const char*>(out->data) + out->byte_offset, bytes);
  return 0;
}

int32_t TFModelTime(TFModel* model, int32_t repeats, double min_repeat_ms, double* seconds,
                    char* error, size_t error_size) {
  if (model == nullptr || seconds == nullptr) {
    return Fail("no model or no result array", error, error_size);
  }
  if (repeats < 1 || repeats > 100000 || !(min_repeat_ms >= 0 && min_repeat_ms <= 60000)) {
    return Fail("repeats must be in 1..100000 and min_repeat_ms in 0..60000", error, error_size);
  }
  std::string message;
  if (!model->executor->Run(&message)) return Fail(message, error, error_size);  // warm
  for (int32_t r = 0; r < repeats; ++r) {
    const auto start = std::chrono::steady_clock::now();
    int64_t runs = 0;
    double elapsed = 0;
    do {
      if (!model->executor->Run(&message)) return Fail(message, error, error_size);
      ++runs;
      elapsed = Seconds(std::chrono::steady_clock::now() - start);
    } while (elapsed * 1e3 < min_repeat_ms);
    seconds[r] = elapsed / static_cast<double>(runs);
  }
  return 0;
}

int32_t TFSetNumThreads(int32_t threads, char* error, size_t error_size) {
  std::string message;
  return tunefarm::runtime::SetNumThreads(threads, &message) ? 0 : Fail(message, error, error_size);
}

}  // extern "C"
