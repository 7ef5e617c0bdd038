// Runs a model module (one library: kernels, TF_GRAPH_SYMBOL and TF_PARAMS_SYMBOL of c_abi.h)
// with runtime/core alone, as a board or phone would. Everything is decided at Load: the graph is
// checked against the kernels' signatures, buffers are planned into one arena, weights are bound
// in place and every kernel call is prebuilt, so that Run allocates nothing.
#pragma once

#include <cstddef>
#include <cstdint>
#include <dlpack/dlpack.h>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/core/c_abi.h"
#include "runtime/core/library_loader.h"
#include "runtime/graph/graph_format.h"
#include "runtime/graph/memory_plan.h"

namespace tunefarm::runtime {

struct GraphLoadOptions {
  GraphLimits limits;
  // The arena (intermediates, inputs and outputs) may not exceed this; a larger plan is refused
  // before anything is allocated.
  uint64_t max_arena_bytes = uint64_t{1} << 34;
};

// A graph input or output as the user sees it.
struct GraphTensorInfo {
  std::string name;
  DLDataType dtype = {kDLFloat, 32, 1};
  std::vector<int64_t> shape;
  uint64_t bytes = 0;
};

// The index of the tensor named `name` in `tensors`, or -1: how executors find inputs and outputs.
int IndexOfTensor(const std::vector<GraphTensorInfo>& tensors, std::string_view name);

class GraphExecutor {
 public:
  // Returns nullptr on failure and sets `*error` to one line naming the path and the problem
  // (graph errors name the graph's line). Kernels' parallel loops run on runtime/core's pool,
  // whose width SetNumThreads (thread_pool.h) sets for every executor in the process.
  static std::unique_ptr<GraphExecutor> Load(const std::string& path, std::string* error,
                                             const GraphLoadOptions& options = {});

  ~GraphExecutor();
  GraphExecutor(const GraphExecutor&) = delete;
  GraphExecutor& operator=(const GraphExecutor&) = delete;

  const std::vector<GraphTensorInfo>& inputs() const { return inputs_; }
  const std::vector<GraphTensorInfo>& outputs() const { return outputs_; }
  // -1 when there is no input (output) of that name.
  int InputIndex(std::string_view name) const;
  int OutputIndex(std::string_view name) const;

  // Copies `bytes` (which must equal the input's size) into the input; inputs keep their values
  // across runs. False, with `*error` set when given, for an unknown name or a wrong size.
  bool SetInput(std::string_view name, const void* data, size_t bytes,
                std::string* error = nullptr);
  bool SetInput(int index, const void* data, size_t bytes, std::string* error = nullptr);
  // The input's own storage (64-byte aligned), to fill without a copy; nullptr for a bad index.
  void* MutableInput(int index);

  // Runs every step in order on the calling thread. False (with the failing step's graph line in
  // `*error`) when a kernel returns nonzero; nothing is allocated unless that happens.
  bool Run(std::string* error = nullptr);
  // Run, with each step's wall time in milliseconds in `*step_ms` (one per step, in order): where a
  // model's time goes. Allocates the vector when it is smaller than the step count.
  bool RunProfiled(std::vector<double>* step_ms, std::string* error = nullptr);
  const std::string& step_kernel(int step) const { return graph_.steps[step].kernel; }

  // A view of an output, valid until the next Run or the executor's end; nullptr for an unknown
  // name or index.
  const DLTensor* GetOutput(std::string_view name) const;
  const DLTensor* GetOutput(int index) const;

  const MemoryPlanStats& memory_stats() const { return memory_stats_; }
  int num_steps() const { return static_cast<int>(calls_.size()); }
  // True when the weights are used where the module holds them (no copy was needed).
  bool params_in_place() const { return params_copy_ == nullptr; }

 private:
  struct Call {
    TFKernelFunc entry;
    int32_t first_arg;  // into values_ and codes_
    int32_t num_args;
    int32_t graph_line;
  };
  struct FreeDeleter {
    void operator()(void* p) const;
  };

  GraphExecutor() = default;
  bool RunImpl(std::string* error, double* step_ms);
  std::string PrepareCalls();
  std::string PlanAndAllocate(const GraphLoadOptions& options);
  std::string BindParams(const unsigned char* params);

  std::unique_ptr<LoadedLibrary> library_;
  GraphDescription graph_;
  std::vector<DLTensor> tensors_;  // one per graph tensor; shapes point into graph_
  std::vector<TFValue> values_;
  std::vector<int32_t> codes_;
  std::vector<Call> calls_;
  std::unique_ptr<unsigned char, FreeDeleter> arena_;
  std::unique_ptr<unsigned char, FreeDeleter> params_copy_;
  std::vector<GraphTensorInfo> inputs_;
  std::vector<GraphTensorInfo> outputs_;
  std::vector<int64_t> input_ids_;
  std::vector<int64_t> output_ids_;
  MemoryPlanStats memory_stats_;
};

}  // namespace tunefarm::runtime
