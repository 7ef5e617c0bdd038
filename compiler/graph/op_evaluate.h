// Evaluating one graph node on concrete arrays: its compute (op_compute.h) under topi's default
// schedule, lowered and compiled by the LLVM JIT. What constant folding calls, and what the op
// tests check against naive references; a JIT build costs milliseconds where the interpreter
// would take seconds on a layer's weights.
#pragma once

#include <vector>

#include "absl/status/statusor.h"
#include "compiler/graph/node.h"
#include "runtime/ndarray.h"

namespace tunefarm::graph {

// The node's outputs (new arrays, in order) from `inputs` (one per node input, read only; one
// array may be passed twice). Errors: what inference says of the inputs' types (naming the
// node), and lowering or code generation failures (Internal, naming the node).
absl::StatusOr<std::vector<runtime::NDArray>> EvaluateOp(
    const Node& node, const std::vector<const runtime::NDArray*>& inputs);

}  // namespace tunefarm::graph
