// Common-subexpression elimination: a node that applies the same op with the same attributes to
// the same values as an earlier one is dropped, and its uses read the earlier node's outputs.
// Constants with equal types and bytes count as the same value.
#pragma once

#include "absl/status/statusor.h"
#include "compiler/graph/graph.h"

namespace tunefarm::graph {

absl::StatusOr<Graph> EliminateCommonSubexpressions(Graph graph);

}  // namespace tunefarm::graph
