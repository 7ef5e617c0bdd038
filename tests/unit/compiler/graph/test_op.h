// Building graphs in tests: one op applied to values, its first output returned; an error fails
// the test (and returns -1).
#pragma once

#include <gtest/gtest.h>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "compiler/graph/graph.h"
#include "compiler/graph/op_registry.h"

namespace tunefarm::graph::testing {

inline ValueId Op(Graph& g, OpKind op, std::vector<ValueId> inputs, Attributes attrs = {}) {
  absl::StatusOr<std::vector<ValueId>> out = g.AddOp(op, "", std::move(attrs), std::move(inputs));
  EXPECT_TRUE(out.ok()) << out.status();
  return out.ok() ? (*out)[0] : -1;
}

// How many nodes of each op the graph has, by op name.
inline std::map<std::string, int> OpCounts(const Graph& g) {
  std::map<std::string, int> counts;
  for (const Node& n : g.nodes()) ++counts[std::string(GetOpInfo(n.op).name)];
  return counts;
}

}  // namespace tunefarm::graph::testing
