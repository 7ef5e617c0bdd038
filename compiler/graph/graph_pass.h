// GraphPass: one named rewrite of a whole graph, and the runner that applies an ordered list of
// them with the lowering pipeline's options: switch passes off, time them, dump the graph after
// one or all, and verify it after each.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler/graph/graph.h"
#include "compiler/passes/pass.h"

namespace tunefarm::graph {

struct GraphPass {
  std::string name;
  std::function<absl::StatusOr<Graph>(Graph)> fn;
};

// Sees the graph after each pass that ran (`tunefarm model passes` prints them), with the
// pass's time in milliseconds.
using GraphPassObserver =
    std::function<void(std::string_view pass, const Graph& after, double milliseconds)>;

// OK when every name in `disabled` names one of `passes`; else InvalidArgument listing them, so
// that a command can refuse a mistyped name before it imports anything.
absl::Status CheckDisabledPasses(const std::vector<GraphPass>& passes,
                                 const std::vector<std::string>& disabled);

// Runs the passes not disabled in `options` in order. A disabled name that names no pass is
// InvalidArgument listing the passes; a failing pass, or a graph that fails verification after
// it, is that error prefixed with the pass's name.
absl::StatusOr<Graph> RunGraphPasses(Graph graph, const std::vector<GraphPass>& passes,
                                     const passes::PassOptions& options,
                                     const GraphPassObserver& observe = {});

}  // namespace tunefarm::graph
