// The compute function of each graph op (one per line of op_list.h, defined in compute_*.cc by op
// family) and what they share. Internal to compiler/graph: users call ComputeOp.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler/graph/op_compute.h"
#include "compiler/graph/op_list.h"
#include "compiler/graph/op_registry.h"
#include "compiler/te/tensor.h"
#include "compiler/topi/window.h"

namespace tunefarm::graph {

// What a compute function sees: the node, its input tensors and their types, and the output
// types inference gave (already checked, so attributes are valid and axes in range).
struct ComputeContext {
  const Node& node;
  const std::vector<te::Tensor>& inputs;
  std::span<const TensorType> input_types;
  std::span<const TensorType> output_types;
  const ComputeOptions& options;

  // InvalidArgument "conv2d node 'conv1': <message>".
  absl::Status Error(const std::string& message) const;
  // `status` with the node named in front of its message, when it is not ok.
  absl::Status Annotate(const absl::Status& status) const;
};

using ComputeResult = absl::StatusOr<OpTensors>;

#define TF_DECLARE_COMPUTE(Name, text, pattern) \
  ComputeResult Compute##Name(const ComputeContext& ctx);
TF_GRAPH_OPS(TF_DECLARE_COMPUTE)
#undef TF_DECLARE_COMPUTE

// One output from a topi result, annotated with the node on error; `stages` are the defined
// tensors among those the output reads through.
ComputeResult One(const ComputeContext& ctx, const absl::StatusOr<te::Tensor>& t,
                  std::vector<te::Tensor> stages = {});

// An attribute, with the node named on error (inference has already read each one, so these
// only fail on a graph that skipped it).
absl::StatusOr<int64_t> IntAttr(const ComputeContext& ctx, const char* name, int64_t fallback);
absl::StatusOr<double> FloatAttr(const ComputeContext& ctx, const char* name, double fallback);
absl::StatusOr<std::vector<int64_t>> IntsAttr(const ComputeContext& ctx, const char* name,
                                              std::vector<int64_t> fallback);

// `axis` (negative counts from the end) as an index into `rank` dimensions.
int NormalizedAxis(int64_t axis, int rank);

// The window of a conv2d or pool node in topi's form (strides, pads, dilations).
absl::StatusOr<topi::Window2d> ReadTopiWindow(const ComputeContext& ctx);

}  // namespace tunefarm::graph
