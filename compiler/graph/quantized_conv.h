// Quantized convolutions (CPU builds): a conv2d (groups 1) whose data is dequantized from uint8
// with one scale and zero point, and whose weight is a dequantized constant int8 tensor (one
// scale per filter or per tensor, zero points 0) — a QDQ model's Conv — becomes conv2d_int8 over
// the uint8 values, its scales, the zero point's correction and the bias in its float epilogue;
// the layout rewrite then blocks it for the CPU's dot product. A max pool of dequantized values
// pools the uint8 values instead (the dequantize is increasing, so the max is the same), so that
// the conv after it reads uint8 too. A conv that does not fit stays float.
#pragma once

#include "absl/status/statusor.h"
#include "compiler/graph/graph.h"

namespace tunefarm::graph {

absl::StatusOr<Graph> RewriteQuantizedConv(Graph graph);

}  // namespace tunefarm::graph
