// The layout rewrite (TVM's AlterOpLayout, for CPUs): convolutions move to the blocked NCHW[c]c
// layout, where each kernel load is a vector of output channels; the elementwise ops between
// them follow; layout transforms are inserted only where a producer and a consumer disagree.
#pragma once

#include "absl/status/statusor.h"
#include "compiler/graph/graph.h"
#include "compiler/topi/cpu_info.h"

namespace tunefarm::graph {

// Rewrites, in graph order:
// - conv2d (groups 1) with constant weights to conv2d_nchwc: output channels in blocks of
//   DefaultConv2dNchwcConfig's oc_block for `cpu`, input channels in the block their producer
//   already has (else the default's ic_block); weights and bias become pad/reshape/transpose
//   nodes on the constants, which constant folding evaluates once;
// - depthwise conv2d (multiplier 1) to depthwise_conv2d_nchwc with its input's block when that
//   is whole vectors, else the default's;
// - elementwise ops of a blocked value, and broadcast ops of two blocked values of one block (or
//   of a blocked value and a one-element constant), to the same ops on the blocked values;
// - max and average pooling of a blocked value to the same pools over its blocks;
// - everything else reads NCHW: a from_nchwc is made once per blocked value that is read so,
//   and a to_nchwc once per value and block that a blocked op reads, so transforms meet only at
//   layout boundaries and a value is never transformed back and forth.
// Blocks pad channels with zeros; the padded channels' values never reach an NCHW value.
// The blocks depend on the graph and the CPU only, not on tuning records: a model's tuning tasks
// fix the blocks their convs have here (tuner/model_tasks.h), so tuned and untuned builds share
// one layout and a record is measured in the layout it is used in.
absl::StatusOr<Graph> RewriteLayoutNchwc(Graph graph, const topi::CpuInfo& cpu);

}  // namespace tunefarm::graph
