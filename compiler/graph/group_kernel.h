// One fused group of a graph (fusion.h) as one kernel: its nodes' computes (op_compute.h) chained
// into one tensor expression, scheduled by its anchor's topi template (CPU or GPU) with the
// epilogue applied in the anchor's output tile (epilogue.h), or by topi's default schedule for
// the device, and lowered for it.
#pragma once

#include <string>
#include <variant>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler/graph/fusion.h"
#include "compiler/graph/graph.h"
#include "compiler/graph/kernel_target.h"
#include "compiler/ir/function.h"
#include "compiler/topi/conv2d.h"
#include "compiler/topi/conv2d_int8.h"
#include "compiler/topi/conv2d_nchwc.h"
#include "compiler/topi/conv2d_winograd.h"
#include "compiler/topi/dense_int8.h"
#include "compiler/topi/depthwise_conv2d_nchwc.h"
#include "compiler/topi/gemm_schedule.h"
#include "compiler/topi/gpu_conv2d.h"
#include "compiler/topi/gpu_depthwise_conv2d.h"
#include "compiler/topi/window_schedule.h"

namespace tunefarm::graph {

struct GroupKernel {
  ir::PrimFunc func;
  std::vector<ValueId> inputs;   // the graph values it reads, in argument order
  std::vector<ValueId> outputs;  // the values it writes (read outside the group), after them
  std::string schedule;          // how it was scheduled: "conv2d template (reg ...)" or "default"
};

// A schedule config for a group's anchor template in place of its default: a tuning record's
// (conv2d's, the window schedule of depthwise conv2d and pooling, a blocked convolution's, which
// applies only where its blocks are the layout's, or a Winograd conv's, only for its tile; a
// GEMM's, only where its register tile is the width its weight was packed in; on a GPU, the GPU
// conv2d's or depthwise conv2d's).
using AnchorConfig =
    std::variant<std::monostate, topi::Conv2dScheduleConfig, topi::WindowScheduleConfig,
                 topi::Conv2dNchwcScheduleConfig, topi::DepthwiseConv2dNchwcScheduleConfig,
                 topi::Conv2dWinogradScheduleConfig, topi::GpuConv2dScheduleConfig,
                 topi::GpuDepthwiseConv2dScheduleConfig, topi::Conv2dInt8Config,
                 topi::DenseInt8Config, topi::GemmScheduleConfig>;

// The kernel of `group` named `name` for `target`, with `config` for its anchor's template when
// it holds the template's kind for the target (else the template's default config).
// Errors: what the computes say of the nodes (naming them), and scheduling or lowering failures
// (Internal, naming the kernel; Unimplemented where the GPU default schedule cannot apply).
absl::StatusOr<GroupKernel> LowerGroup(const Graph& graph, const FusedGroup& group,
                                       const std::string& name, const KernelTarget& target,
                                       const AnchorConfig& config = {});

// A kernel that copies a tensor of `type` (a model output that is an input or a weight).
absl::StatusOr<GroupKernel> LowerCopy(const TensorType& type, const std::string& name,
                                      const KernelTarget& target);

// A kernel name for group `index`: "fused_3_conv2d_add_relu" (ops in node order, at most five).
std::string GroupKernelName(const Graph& graph, const FusedGroup& group, int index);

}  // namespace tunefarm::graph
