// Weight pre-packing: a gemm whose weight is a constant read transposed (trans_b, as PyTorch's
// Linear exports it) gets that weight transposed once at build time, so its kernel reads a vector
// of output columns per step of k from contiguous memory. With a column block (CPU builds: the
// vector's lanes) the weight is packed as [N/block][K][block] instead, so that each block of
// columns is one contiguous stream: a batch-1 dense layer is bound by memory, and reading its
// weight a vector per row, 16 KB apart, runs at a fraction of the bandwidth. The packing is a node
// on the constant that constant folding, which runs next, evaluates.
#pragma once

#include <cstdint>

#include "absl/status/statusor.h"
#include "compiler/graph/graph.h"

namespace tunefarm::graph {

// `column_block` 0: transpose only (GPU builds, whose schedules read [K][N]); > 0: pack a gemm's
// constant weight (transposed or not) when N is a multiple of it and a is not transposed, in
// blocks of two of it for a gemm of 4 rows or more.
absl::StatusOr<Graph> PackWeights(Graph graph, int64_t column_block = 0);

}  // namespace tunefarm::graph
