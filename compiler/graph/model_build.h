// The build of a whole model: a fused graph (graph_pipeline.h) becomes its kernels (one per fused
// group, group_kernel.h), the executable graph runtime/graph runs (graph_format.h) and the weights
// as one blob; ExportModel writes them as one shared library that the graph runtime loads alone.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "compiler/codegen/llvm/build.h"
#include "compiler/codegen/llvm/llvm_target.h"
#include "compiler/graph/graph.h"
#include "compiler/graph/group_kernel.h"
#include "compiler/graph/kernel_target.h"
#include "runtime/graph/graph_format.h"

namespace tunefarm::graph {

struct BuiltModel {
  KernelTarget target;
  std::vector<GroupKernel> kernels;  // in the order the graph runs them
  runtime::GraphDescription graph;
  std::string graph_text;  // WriteGraph(graph), embedded as TF_GRAPH_SYMBOL
  std::string params;      // the weights the kernels read, each at a 64-byte aligned offset
};

// Builds `graph`, whose nodes carry their fused groups (FuseOps; a node without one is a group of
// its own), for `target`. A graph output that is a graph input or a constant, or a value's second
// output name, is written by a copy kernel. On a GPU, a group the default schedule cannot make
// one kernel of (a reduction shared by two outputs) is built node by node. Errors: Unimplemented
// for a zero-size tensor (the module format has none), what lowering a group reports (naming its
// kernel). `configs` (by group index in PlanFusion's order) replaces the default config of those
// groups' CPU anchor templates: what a records database tuned.
absl::StatusOr<BuiltModel> BuildModel(const Graph& graph, const KernelTarget& target,
                                      const std::map<int, AnchorConfig>& configs = {});

// The data symbols every model module holds: TF_GRAPH_SYMBOL, TF_PARAMS_SIZE_SYMBOL and
// TF_PARAMS_SYMBOL (c_abi.h), viewing `model` (and `size_bytes`, which holds the blob's size).
std::vector<codegen::DataSymbol> ModelDataSymbols(const BuiltModel& model, std::string* size_bytes);

// Writes a CPU-built `model` for `target` (host or cross) as one shared library at `path`: the
// kernels with their manifest, and ModelDataSymbols. FailedPrecondition for a GPU-built model
// (gpu_model_export.h writes those).
absl::Status ExportModel(const BuiltModel& model, const codegen::LlvmTarget& target,
                         const std::string& path);

}  // namespace tunefarm::graph
