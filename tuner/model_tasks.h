// The tuning tasks of a model (TVM's task extraction): each fused group whose anchor a tuner
// template covers (conv2d, depthwise_conv2d, their blocked forms, dense, matmul) becomes that
// template's workload, and groups with the same workload share one task, weighted by how many
// there are.
#pragma once

#include <optional>
#include <vector>

#include "compiler/graph/fusion.h"
#include "compiler/graph/graph.h"
#include "tuner/workload.h"

namespace tunefarm::tuner {

struct ModelTask {
  Workload workload;
  std::vector<int> groups;  // the fused groups (indices into the plan) it covers
};

// The workload of the group's anchor, or nullopt when no template covers it (pooling, a conv with
// dilation, uneven strides or padding, or groups other than 1 and the channel count). A blocked
// conv's workload fixes the blocks its layout has (conv2d_nchwc "...,pad,ic_block,oc_block").
std::optional<Workload> AnchorWorkload(const graph::Graph& graph, const graph::FusedGroup& group);

// The distinct workloads of `plan`'s groups, in the order of their first group.
std::vector<ModelTask> ExtractModelTasks(const graph::Graph& graph, const graph::FusionPlan& plan);

}  // namespace tunefarm::tuner
