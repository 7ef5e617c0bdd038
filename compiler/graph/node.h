// Node: one op application in a graph, reading values and defining new ones by id.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "compiler/graph/attributes.h"
#include "compiler/graph/op_kind.h"

namespace tunefarm::graph {

// Index of a value in its Graph (an input, a constant or a node output).
using ValueId = int32_t;

struct Node {
  OpKind op;
  // The model's name for the node (ONNX node name), for messages; may be empty.
  std::string name;
  Attributes attrs;
  std::vector<ValueId> inputs;
  std::vector<ValueId> outputs;
  // The kernel this node is computed in, once fusion has run (FuseOps); -1 before.
  int32_t fused_group = -1;
};

}  // namespace tunefarm::graph
