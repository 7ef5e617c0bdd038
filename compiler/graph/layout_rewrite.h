// The layout rewrite (TVM's AlterOpLayout, for CPUs): convolutions move to the blocked NCHW[c]c
// layout, where each kernel load is a vector of output channels; the elementwise ops between
// them follow; layout transforms are inserted only where a producer and a consumer disagree.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler/graph/graph.h"
#include "compiler/topi/cpu_info.h"

namespace tunefarm::graph {

// Output-channel blocks chosen for some of a graph's convs (groups 1), by their index in the
// graph's nodes, in place of the rule's: the graph-level layout choice of a build with records
// (driver/layout_plan.h). Each is one of ConvOcBlockCandidates.
using ConvBlockPlan = std::map<size_t, int64_t>;

// Chooses the plan for the graph the layout pass is about to rewrite (its convs still NCHW).
using ConvBlockPlanner = std::function<absl::StatusOr<ConvBlockPlan>(const Graph&)>;

// Whether `node` is a conv a ConvBlockPlan may name: one the rewrite blocks as conv2d_nchwc
// (groups 1, float32, constant weights and bias).
bool IsPlannableConv(const Graph& graph, const Node& node);

// The output-channel blocks a conv of `filters` channels may have on `cpu`: one vector of
// float32 lanes, and two where there are that many channels (the rule's choice is the largest).
std::vector<int64_t> ConvOcBlockCandidates(int64_t filters, const topi::CpuInfo& cpu);

// Rewrites, in graph order:
// - conv2d (groups 1) with constant weights to conv2d_nchwc: output channels in blocks of
//   DefaultConv2dNchwcConfig's oc_block for `cpu`, input channels in the block their producer
//   already has (else the default's ic_block); weights and bias become pad/reshape/transpose
//   nodes on the constants, which constant folding evaluates once;
// - depthwise conv2d (multiplier 1) to depthwise_conv2d_nchwc with its input's block when that
//   is whole vectors, else the default's;
// - conv2d_int8 to conv2d_int8_nchwc: output channels in blocks of the dot product's int32
//   lanes, input channels in their producer's block when it is whole groups of four, else one
//   vector's worth; quantize and dequantize with one scale and zero point follow their input;
// - elementwise ops of a blocked value, and broadcast ops of two blocked values of one block (or
//   of a blocked value and a one-element constant), to the same ops on the blocked values;
// - max and average pooling of a blocked value to the same pools over its blocks;
// - everything else reads NCHW: a from_nchwc is made once per blocked value that is read so,
//   and a to_nchwc once per value and block that a blocked op reads, so transforms meet only at
//   layout boundaries and a value is never transformed back and forth.
// Blocks pad channels with zeros; the padded channels' values never reach an NCHW value.
// A conv's output block is the rule's unless `plan` names the conv; the blocks of everything else
// follow from the convs'. A model's tuning tasks fix the blocks their convs have (tuner/
// model_tasks.h), so a record is measured in the layout it is used in. Errors: a planned block
// that is not one of the conv's candidates, or a plan entry that is not a conv (InvalidArgument
// naming the node).
absl::StatusOr<Graph> RewriteLayoutNchwc(const Graph& graph, const topi::CpuInfo& cpu,
                                         const ConvBlockPlan& plan = {});

}  // namespace tunefarm::graph
