// The tuning tasks of a model (TVM's task extraction): each fused group whose anchor a tuner
// template covers (conv2d, depthwise_conv2d, their blocked and Winograd forms, the int8 blocked
// conv2d and dense, dense, matmul)
// becomes that template's workload, and groups with the same workload share one task, weighted by
// how many there are. A layer with two algorithms (a 3x3 stride-1 blocked conv: direct or
// Winograd) can give a task for each, so that the build picks the faster by measurement.
#pragma once

#include <optional>
#include <vector>

#include "compiler/graph/fusion.h"
#include "compiler/graph/graph.h"
#include "compiler/topi/cpu_info.h"
#include "tuner/layout_choice.h"
#include "tuner/workload.h"

namespace tunefarm::tuner {

struct ModelTask {
  Workload workload;
  // The fused groups (indices into the plan) it covers; none for a layout transform, which the
  // model runs only where a layout choice puts one (its weight is 0: timed, not tuned).
  std::vector<int> groups;
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

// The distinct workloads of `plan`'s groups, in the order of their first group. With `layouts`
// (the CPU the layout rewrite blocked `graph` for), what a graph-level layout choice
// (graph::ConvBlockPlan) needs measured too:
// - each blocked conv's workloads at every block pair a plan could give it, after its layout's
//   own and in the same layer: output blocks from graph::ConvOcBlockCandidates of its filters,
//   input blocks from those of its channels where its producer's block is a choice (a to_nchwc of
//   an NCHW value fixes it);
// - for each add of two blocked values, a layout_transform task between every two candidate
//   blocks of its channels (what a plan that gives the two sides different blocks inserts).
std::vector<ModelTask> ExtractModelTasks(
    const graph::Graph& graph, const graph::FusionPlan& plan,
    TaskAlgorithms algorithms = TaskAlgorithms::kBuilt,
    const std::optional<topi::CpuInfo>& layouts = std::nullopt);

// The layout choice `tasks` (ExtractModelTasks' with `layouts` = `cpu`) serve, for a scheduler that
// has no graph: a var per blocked conv of `graph` (the rule's blocks are its blocks), a required
// site per blocked conv group, an optional one per add of two blocked values. A value's block is
// decided by the conv that produced it, through the ops that keep blocks: an add's first input
// (the rewrite moves the second into its block) and a depthwise conv's input. Empty when `tasks`
// hold no block variants.
LayoutChoice ExtractLayoutChoice(const graph::Graph& graph, const graph::FusionPlan& plan,
                                 const std::vector<ModelTask>& tasks, const topi::CpuInfo& cpu);

}  // namespace tunefarm::tuner
