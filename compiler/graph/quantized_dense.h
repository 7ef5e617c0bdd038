// Quantized dense layers (CPU builds): a gemm whose A is dequantized from uint8 with one scale and
// zero point, and whose B is a dequantized constant int8 weight (one scale per output row or per
// tensor, zero points 0) — a QDQ model's Linear layer — becomes dense_int8 over the uint8 values
// and the weight packed for the CPU's dot product, the scales, the zero point's correction and
// the bias in its float epilogue. A gemm that does not fit (another scheme, a transposed A, K not
// a multiple of 4, a C that is not a constant vector) stays float.
#pragma once

#include <cstdint>

#include "absl/status/statusor.h"
#include "compiler/graph/graph.h"

namespace tunefarm::graph {

// `lanes`: the dot product's int32 sums per instruction (DefaultDenseInt8Config's).
absl::StatusOr<Graph> RewriteQuantizedDense(Graph graph, int64_t lanes);

}  // namespace tunefarm::graph
