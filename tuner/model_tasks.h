// The tuning tasks of a model (TVM's task extraction): each fused group whose anchor a tuner
// template covers (conv2d, depthwise_conv2d, their blocked and Winograd forms, dense, matmul)
// becomes that template's workload, and groups with the same workload share one task, weighted by
// how many there are. A layer with two algorithms (a 3x3 stride-1 blocked conv: direct or
// Winograd) can give a task for each, so that the build picks the faster by measurement.
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
  // Tasks of one layer class (identical groups) share it: alternatives, of which the build runs
  // one. Numbered from 0 in the order of first appearance.
  int layer = 0;
};

// Which workloads a group gives: the algorithm it is built with, or every algorithm the build
// could choose for it (what a model is tuned for).
enum class TaskAlgorithms { kBuilt, kAll };

// The workload of the group's anchor, or nullopt when no template covers it (pooling, a conv with
// dilation, uneven strides or padding, or groups other than 1 and the channel count). A blocked
// conv's workload fixes the blocks its layout has (conv2d_nchwc "...,pad,ic_block,oc_block").
std::optional<Workload> AnchorWorkload(const graph::Graph& graph, const graph::FusedGroup& group);
// The same for one node of a graph, fused or not.
std::optional<Workload> NodeWorkload(const graph::Graph& graph, const graph::Node& node);

// With kAll, a conv that can run either way gives conv2d_nchwc's and conv2d_winograd_nchwc's
// workloads, in that order, with the same arguments.
std::vector<Workload> AnchorWorkloads(const graph::Graph& graph, const graph::FusedGroup& group,
                                      TaskAlgorithms algorithms);

// The distinct workloads of `plan`'s groups, in the order of their first group.
std::vector<ModelTask> ExtractModelTasks(const graph::Graph& graph, const graph::FusionPlan& plan,
                                         TaskAlgorithms algorithms = TaskAlgorithms::kBuilt);

}  // namespace tunefarm::tuner
