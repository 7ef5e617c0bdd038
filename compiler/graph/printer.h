// The graph printer: one line per node, readable like the lowered-IR printer, e.g.
//   %3 = conv2d(%input, @conv1.weight) pads=[3,3,3,3] strides=[2,2] : float32[1,64,112,112]
// Inputs print as %name, constants as @name (listed once with their types, never their data) and
// node outputs as %<value id>.
#pragma once

#include <string>

#include "compiler/graph/graph.h"

namespace tunefarm::graph {

std::string ToString(const Graph& graph);

// How `value` appears in printed operand lists: "%input", "@conv1.weight", "%7".
std::string ValueRef(const Graph& graph, ValueId value);

}  // namespace tunefarm::graph
