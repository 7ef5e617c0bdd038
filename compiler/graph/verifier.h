// The graph verifier: the invariants every graph keeps between passes, checked in one place.
#pragma once

#include "absl/status/status.h"
#include "compiler/graph/graph.h"

namespace tunefarm::graph {

// Ok when: every node input is a value defined before the node (so there is no cycle); every
// value's producer record matches the node that lists it; node output types are what the
// registry infers from the input types; constant types match their data; value names, node names
// and graph output names are unique where given; graph outputs name existing values. Otherwise
// FailedPrecondition naming the first broken node or value.
absl::Status VerifyGraph(const Graph& graph);

}  // namespace tunefarm::graph
