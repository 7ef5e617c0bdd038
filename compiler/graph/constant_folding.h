// Constant folding: a node whose inputs are all constants is evaluated at build time with our own
// compiled kernels (op_evaluate.h) and becomes a constant. Folds the shape arithmetic the importer
// left, and the weight transforms pre-packing inserts.
#pragma once

#include <cstddef>

#include "absl/status/statusor.h"
#include "compiler/graph/graph.h"

namespace tunefarm::graph {

// A folded result may be larger than its inputs (a broadcast), but not by more than this past
// them: a model's size is bounded by what its file holds.
inline constexpr size_t kMaxFoldedGrowthBytes = size_t{1} << 20;

absl::StatusOr<Graph> FoldConstants(Graph graph);

// Folds only the quantize and dequantize nodes of constants: a QDQ model's weights, made float
// before the passes that pack constant weights (pack_weights, the layout rewrite) look for them.
absl::StatusOr<Graph> FoldQuantizedWeights(Graph graph);

}  // namespace tunefarm::graph
