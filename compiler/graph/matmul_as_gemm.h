// A matmul of activations by a constant matrix (a Linear layer on a sequence, as PyTorch exports
// transformers: MatMul then Add of the bias) as a gemm on the rows: A [..., M, K] viewed as
// [rows, K], gemm with the weight (and the bias as its C), viewed back. The gemm then gets its
// weight packed at build time and the GEMM template, where the matmul ran the default schedule.
// In a QDQ model the weight may be a dequantized constant, and a per-tensor dequantized A is
// reshaped before its dequantize: the gemm then reads two dequantizes, which quantized_dense
// turns into an int8 kernel.
#pragma once

#include "absl/status/statusor.h"
#include "compiler/graph/graph.h"

namespace tunefarm::graph {

absl::StatusOr<Graph> RewriteMatmulAsGemm(Graph graph);

}  // namespace tunefarm::graph
