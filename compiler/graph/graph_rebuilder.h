// GraphRebuilder: how a graph pass makes its result. Graphs only grow, so a pass copies the nodes
// it keeps into a new graph, remapping value ids; constants share their memory with the source.
#pragma once

#include <vector>

#include "compiler/graph/graph.h"

namespace tunefarm::graph {

class GraphRebuilder {
 public:
  // Starts the new graph with the source's inputs (in order). Constants come over when first
  // used, so the ones no kept node reads are dropped.
  explicit GraphRebuilder(const Graph& source);

  // The new id of a source value (a constant is brought over on first use).
  ValueId Map(ValueId source_value);
  // Makes later uses of `source_value` read `now` (a value of the new graph) instead.
  void Replace(ValueId source_value, ValueId now) { map_[source_value] = now; }
  // Copies `node` with its inputs mapped; its outputs keep their types and names.
  void Copy(const Node& node);
  // Adds `node` (its inputs already values of the new graph) in place of `source`: its outputs
  // take the source outputs' types and names, and later uses of those read the new ones.
  void CopyAs(const Node& source, Node node);

  Graph& graph() { return graph_; }
  // Adds the source's outputs, mapped, and returns the new graph.
  Graph Finish();

 private:
  const Graph& source_;
  Graph graph_;
  std::vector<ValueId> map_;  // source value -> new value; -1 until mapped
};

}  // namespace tunefarm::graph
