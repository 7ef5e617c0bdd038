// Runs a model module built for a GPU (TF_GPU_MODULE_SYMBOL, c_abi.h: a CUDA or an OpenCL
// module) on the process's device of its API (runtime/devices), like GraphExecutor on a CPU: at
// Load the graph is parsed and checked against the kernels' signatures, the arena is planned and
// allocated once in device memory, the weights are copied there once and every step's launches
// are resolved, so that Run only queues launches. Written on the device API alone.
// Unlike runtime/graph's CPU executor it uses absl (through runtime/gpu): GPU hosts are not the
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
#include "runtime/gpu/gpu_device.h"
#include "runtime/gpu/gpu_function.h"
#include "runtime/graph/graph_executor.h"
#include "runtime/graph/graph_format.h"
#include "runtime/graph/memory_plan.h"

namespace tunefarm::runtime::gpu {

class GpuGraphExecutor {
 public:
  // InvalidArgument (one line naming the path) for a file that is not a GPU model module or a
  // graph that does not parse or check; Unavailable where there is no driver or device; what the
  // driver says of the device code or an allocation.
  static absl::StatusOr<std::unique_ptr<GpuGraphExecutor>> Load(
      const std::string& path, const GraphLoadOptions& options = {});

  ~GpuGraphExecutor();
  GpuGraphExecutor(const GpuGraphExecutor&) = delete;
  GpuGraphExecutor& operator=(const GpuGraphExecutor&) = delete;

  const std::vector<GraphTensorInfo>& inputs() const { return inputs_; }
  const std::vector<GraphTensorInfo>& outputs() const { return outputs_; }
  int InputIndex(std::string_view name) const;
  int OutputIndex(std::string_view name) const;

  // Copies `bytes` (the input's size) from host memory to the input on the device.
  absl::Status SetInput(std::string_view name, const void* data, size_t bytes);
  absl::Status SetInput(int index, const void* data, size_t bytes);

  // Queues every step and waits for the GPU.
  absl::Status Run();
  // Run with the device's time of each step in milliseconds (GpuDevice::TimeQueued per step).
  absl::Status RunProfiled(std::vector<double>* step_ms);
  const std::string& step_kernel(int step) const { return graph_.steps[step].kernel; }
  int num_steps() const { return static_cast<int>(calls_.size()); }

  // Copies output `index` to host memory (`bytes` must be its size).
  absl::Status CopyOutput(int index, void* data, size_t bytes) const;

  const MemoryPlanStats& memory_stats() const { return memory_stats_; }
  const GpuDevice& device() const { return *device_; }

 private:
  GpuGraphExecutor() = default;
  // Every step against its kernel's signature in `image`, before anything is allocated.
  absl::Status CheckSteps(const GpuModuleImage& image) const;
  absl::Status Prepare(const unsigned char* params, const std::string& module_text,
                       const GraphLoadOptions& options);

  std::unique_ptr<LoadedLibrary> library_;
  GraphDescription graph_;
  std::shared_ptr<GpuDevice> device_;
  std::shared_ptr<GpuLoadedModule> module_;
  DeviceBuffer arena_;
  DeviceBuffer params_;
  // One per graph tensor; `data` is its buffer's handle (arena_ or params_), `byte_offset` its
  // place there.
  std::vector<DLTensor> tensors_;
  std::vector<GpuDeviceCall> calls_;
  std::vector<GraphTensorInfo> inputs_;
  std::vector<GraphTensorInfo> outputs_;
  std::vector<int64_t> input_ids_;
  std::vector<int64_t> output_ids_;
  MemoryPlanStats memory_stats_;
};

}  // namespace tunefarm::runtime::gpu
