// Scale folding: a per-output-channel multiply after a conv2d (a batch norm's scale, once
// simplify_inference made it one) is folded into the conv's weights and bias, and a per-channel
// add after it into its bias, so the kernel does neither. Only when the conv's output has no other
// reader and the weights are constants.
#pragma once

#include "absl/status/statusor.h"
#include "compiler/graph/graph.h"

namespace tunefarm::graph {

absl::StatusOr<Graph> FoldScales(Graph graph);

}  // namespace tunefarm::graph
