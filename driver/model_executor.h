// What `tunefarm model run|test` drive: a built model module on the CPU (runtime/graph) or on a
// GPU (runtime/graph/gpu: CUDA or OpenCL), with its inputs and outputs in host memory either way.
#pragma once

#include <dlpack/dlpack.h>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "runtime/graph/graph_executor.h"

namespace tunefarm::driver {

class ModelExecutor {
 public:
  virtual ~ModelExecutor() = default;

  virtual const std::vector<runtime::GraphTensorInfo>& inputs() const = 0;
  virtual const std::vector<runtime::GraphTensorInfo>& outputs() const = 0;
  // -1 when the model has no input of that name.
  int InputIndex(std::string_view name) const;

  // `bytes` must be the input's size.
  virtual absl::Status SetInput(int index, const void* data, size_t bytes) = 0;
  virtual absl::Status Run() = 0;
  // Run, with each step's time in milliseconds (GPU time on a GPU).
  virtual absl::Status RunProfiled(std::vector<double>* step_ms) = 0;
  virtual int num_steps() const = 0;
  virtual const std::string& step_kernel(int step) const = 0;
  // Output `index` after the last Run, in host memory; valid until the next call.
  virtual absl::StatusOr<const DLTensor*> Output(int index) = 0;
  // "cpu" or the GPU's name.
  virtual std::string device() const = 0;
};

// The executor for the module file at `path`: the GPU executor for a module built for a GPU
// (TF_GPU_MODULE_SYMBOL), else the CPU one. Errors: what loading says, naming the path;
// Unavailable for a GPU module on a machine without a device of its API.
absl::StatusOr<std::unique_ptr<ModelExecutor>> OpenModelModule(const std::string& path);

}  // namespace tunefarm::driver
