// Winograd for the blocked convolutions where it saves time (the layer's algorithm, as TVM's
// AlterOpLayout picks conv2d_winograd per layer): after the layout rewrite, a conv2d_nchwc with a
// 3x3 window, stride 1, dilation 1 and one padding of 0 or 1 becomes winograd_weight (its packed
// weight transformed once: constant folding evaluates it) and conv2d_winograd_nchwc, in the same
// blocked layouts, with the bias and the fused epilogue as before.
#pragma once

#include <cstdint>

#include "absl/status/statusor.h"
#include "compiler/graph/graph.h"

namespace tunefarm::graph {

// F(m x m, 3x3)'s m for a layer of `out_height` rows and the given channels; 0: the direct conv.
int64_t WinogradTileFor(int64_t out_height, int64_t in_channels, int64_t out_channels);

absl::StatusOr<Graph> RewriteWinograd(Graph graph);

}  // namespace tunefarm::graph
