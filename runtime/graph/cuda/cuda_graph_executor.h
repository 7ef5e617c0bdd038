// Runs a model module built for a CUDA GPU (TF_CUDA_MODULE_SYMBOL, c_abi.h) on device 0, like
// GraphExecutor on a CPU: at Load the graph is parsed and checked against the kernels'
// signatures, the arena is planned and allocated once in device memory, the weights are copied
// there once and every step's launches are resolved, so that Run only queues launches.
// Unlike runtime/graph's CPU executor it uses absl (through runtime/cuda): GPU hosts are not the
// size-bound boards that executor is kept small for.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "runtime/core/library_loader.h"
#include "runtime/cuda/cuda_device.h"
#include "runtime/cuda/cuda_function.h"
#include "runtime/graph/graph_executor.h"
#include "runtime/graph/graph_format.h"
#include "runtime/graph/memory_plan.h"

namespace tunefarm::runtime::cuda {

class CudaGraphExecutor {
 public:
  // InvalidArgument (one line naming the path) for a file that is not a CUDA model module or a
  // graph that does not parse or check; Unavailable where there is no driver or GPU; what the
  // driver says of the PTX or an allocation.
  static absl::StatusOr<std::unique_ptr<CudaGraphExecutor>> Load(
      const std::string& path, const GraphLoadOptions& options = {});

  ~CudaGraphExecutor();
  CudaGraphExecutor(const CudaGraphExecutor&) = delete;
  CudaGraphExecutor& operator=(const CudaGraphExecutor&) = delete;

  const std::vector<GraphTensorInfo>& inputs() const { return inputs_; }
  const std::vector<GraphTensorInfo>& outputs() const { return outputs_; }
  int InputIndex(std::string_view name) const;
  int OutputIndex(std::string_view name) const;

  // Copies `bytes` (the input's size) from host memory to the input on the device.
  absl::Status SetInput(std::string_view name, const void* data, size_t bytes);
  absl::Status SetInput(int index, const void* data, size_t bytes);

  // Queues every step and waits for the GPU.
  absl::Status Run();
  // Run with the GPU's time of each step in milliseconds (CUDA events around each step).
  absl::Status RunProfiled(std::vector<double>* step_ms);
  const std::string& step_kernel(int step) const { return graph_.steps[step].kernel; }
  int num_steps() const { return static_cast<int>(calls_.size()); }

  // Copies output `index` to host memory (`bytes` must be its size).
  absl::Status CopyOutput(int index, void* data, size_t bytes) const;

  const MemoryPlanStats& memory_stats() const { return memory_stats_; }
  const CudaDevice& device() const { return *device_; }

 private:
  CudaGraphExecutor() = default;
  // Every step against its kernel's signature in `image`, before anything is allocated.
  absl::Status CheckSteps(const CudaModuleImage& image) const;
  absl::Status Prepare(const unsigned char* params, const std::string& module_text,
                       const GraphLoadOptions& options);

  std::unique_ptr<LoadedLibrary> library_;
  GraphDescription graph_;
  std::shared_ptr<CudaDevice> device_;
  std::shared_ptr<CudaLoadedModule> module_;
  DeviceBuffer arena_;
  DeviceBuffer params_;
  std::vector<DLTensor> tensors_;  // one per graph tensor; data are device pointers
  std::vector<CudaDeviceCall> calls_;
  std::vector<GraphTensorInfo> inputs_;
  std::vector<GraphTensorInfo> outputs_;
  std::vector<int64_t> input_ids_;
  std::vector<int64_t> output_ids_;
  MemoryPlanStats memory_stats_;
};

}  // namespace tunefarm::runtime::cuda
