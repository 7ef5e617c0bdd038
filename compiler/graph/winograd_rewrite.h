// Winograd for the blocked convolutions where it saves time (the layer's algorithm, as TVM's
// AlterOpLayout picks conv2d_winograd per layer): after the layout rewrite, a conv2d_nchwc with a
// 3x3 window, stride 1, dilation 1 and one padding of 0 or 1 becomes winograd_weight (its packed
// weight transformed once: constant folding evaluates it) and conv2d_winograd_nchwc, in the same
// blocked layouts, with the bias and the fused epilogue as before.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>

#include "absl/status/statusor.h"
#include "compiler/graph/graph.h"

namespace tunefarm::graph {

// The uniform padding (0 or 1) of a conv2d_nchwc that Winograd can compute (3x3, stride 1,
// dilation 1), of a conv2d_winograd_nchwc, or nullopt: such a conv has both algorithms.
std::optional<int64_t> WinogradPadding(const Graph& graph, const Node& node);

// F(m x m, 3x3)'s m for a layer of `out_height` rows and the given channels; 0: the direct conv.
// The rule without measurements.
int64_t WinogradTileFor(int64_t out_height, int64_t in_channels, int64_t out_channels);

// Which algorithm a conv2d_nchwc that WinogradPadding accepts runs: F(m x m, 3x3)'s m (2, 4 or 6)
// or 0 for the direct conv. A model build with records chooses by their times.
using WinogradChooser = std::function<absl::StatusOr<int64_t>(const Graph&, const Node&)>;

// WinogradTileFor of the conv's output rows and channels.
absl::StatusOr<int64_t> DefaultWinogradTile(const Graph& graph, const Node& node);

// Errors: the chooser's, and a tile other than 0, 2, 4 or 6 (InvalidArgument naming the node).
absl::StatusOr<Graph> RewriteWinograd(Graph graph, const WinogradChooser& choose);

}  // namespace tunefarm::graph
