// Inference simplification: a batch norm with constant statistics becomes a per-channel multiply
// and add (scale = gamma / sqrt(var + eps), shift = beta - mean * scale), which fusion then puts
// in the epilogue of the conv before it, and which scale folding can fold into its weights.
#pragma once

#include "absl/status/statusor.h"
#include "compiler/graph/graph.h"

namespace tunefarm::graph {

absl::StatusOr<Graph> SimplifyInference(Graph graph);

}  // namespace tunefarm::graph
