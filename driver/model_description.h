// What `model info` shows of an ONNX model: its interface, op counts, parameters and FLOPs as
// imported; the kernels a build for this CPU makes; and the tuning tasks whose records that build
// uses, apart from kernels a template covers that the build does not configure from records yet.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "tuner/model_tasks.h"

namespace tunefarm::driver {

struct ModelDescription {
  struct Value {
    std::string name;
    std::string type;  // "float32[1,3,224,224]"
  };
  struct Group {
    std::vector<std::string> ops;  // the fused ops, anchor first
    std::string workload_key;      // its anchor's tuning workload; empty: none
  };
  std::vector<Value> inputs;
  std::vector<Value> outputs;
  int nodes = 0;
  std::vector<std::pair<std::string, int64_t>> op_counts;  // commonest first
  int64_t parameters = 0;
  int64_t parameter_bytes = 0;
  int64_t flops = 0;  // conv2d, gemm and matmul multiply-adds x 2
  std::vector<Group> groups;
  // What `model tune` tunes and `model build --db` reads (both algorithms of a conv that may run
  // either way; the layout rule's channel blocks).
  std::vector<tuner::ModelTask> tasks;
  // Kernels a template covers whose records the build does not apply yet (they are not tuned).
  std::vector<tuner::ModelTask> not_configured;
};

// `input_shapes` fixes named dimensions. Errors: the import's (its message may span lines), or
// "graph passes: ..." from the passes.
absl::StatusOr<ModelDescription> DescribeModel(
    const std::string& onnx_path, const std::map<std::string, std::vector<int64_t>>& input_shapes);

}  // namespace tunefarm::driver
