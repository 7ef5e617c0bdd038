// The order to import an ONNX graph's nodes in: producers before consumers. ONNX requires files
// to be sorted already; a hostile or careless one may not be, or may contain a cycle.
#pragma once

#include <onnx/onnx_pb.h>
#include <set>
#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace tunefarm::frontend::onnx {

// Node indices in an order where every node follows the producers of its inputs, keeping the
// file's order where it allows. `defined` holds the names defined outside the nodes (graph
// inputs, initializers). Errors name the node: an input nothing defines, an output defined
// twice, or the nodes of a cycle.
absl::StatusOr<std::vector<int>> TopologicalOrder(const ::onnx::GraphProto& graph,
                                                  const std::set<std::string>& defined);

}  // namespace tunefarm::frontend::onnx
