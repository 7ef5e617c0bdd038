// Weight pre-packing: a gemm whose weight is a constant read transposed (trans_b, as PyTorch's
// Linear exports it) gets that weight transposed once at build time, so its kernel reads a vector
// of output columns per step of k from contiguous memory. The transpose is a node on the constant
// that constant folding, which runs next, evaluates.
#pragma once

#include "absl/status/statusor.h"
#include "compiler/graph/graph.h"

namespace tunefarm::graph {

absl::StatusOr<Graph> PackWeights(Graph graph);

}  // namespace tunefarm::graph
