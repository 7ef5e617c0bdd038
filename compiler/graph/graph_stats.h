// Summary numbers of a graph for people: op counts, parameter count and bytes, and FLOPs (what
// `tunefarm model info` prints; later the fused groups and their workload keys).
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "compiler/graph/graph.h"

namespace tunefarm::graph {

struct GraphStats {
  std::map<std::string, int64_t> op_counts;  // by op name
  int64_t parameters = 0;                    // elements of all constants
  int64_t parameter_bytes = 0;
  // Multiply-adds of conv2d, gemm and matmul, times two; the other ops are not counted (they are
  // a few percent of a CNN's arithmetic).
  int64_t flops = 0;
};

GraphStats ComputeGraphStats(const Graph& graph);

}  // namespace tunefarm::graph
