// Dead-code elimination: drops the nodes no graph output depends on, and the constants only they
// read. Graph inputs stay, used or not: they are the model's signature.
#pragma once

#include "absl/status/statusor.h"
#include "compiler/graph/graph.h"

namespace tunefarm::graph {

absl::StatusOr<Graph> EliminateDeadCode(Graph graph);

}  // namespace tunefarm::graph
