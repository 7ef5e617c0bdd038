// What the quantized passes (quantized_dense.h, quantized_conv.h) read from a QDQ graph: the
// dequantize or quantize producing a value, and the constants of their parameters and weights.
#pragma once

#include <cstring>
#include <optional>
#include <vector>

#include "compiler/graph/graph.h"
#include "runtime/ndarray.h"

namespace tunefarm::graph {

// The node that produces `v`, when it is a node output of kind `op`.
const Node* ProducerOf(const Graph& g, ValueId v, OpKind op);

// A constant's elements as doubles (float32, uint8 or int8), or nullopt.
std::optional<std::vector<double>> ConstantElements(const Graph& g, ValueId v);

// A float32 value known at build time as doubles: a constant, or the dequantize of constants
// (a QDQ model's int32 bias), evaluated here; nullopt otherwise.
std::optional<std::vector<double>> KnownFloatValues(const Graph& g, ValueId v);

// An int8 constant: `v` itself, or the quantize of constants that produces it (evaluated here,
// where constant folding might not, for a weight over its size limit).
std::optional<runtime::NDArray> Int8Constant(const Graph& g, ValueId v);

// A new array of `shape` holding `v` (whose element type is `dtype`'s).
template <typename T>
runtime::NDArray ArrayOf(std::vector<int64_t> shape, DLDataType dtype, const std::vector<T>& v) {
  runtime::NDArray a = *runtime::NDArray::Empty(std::move(shape), dtype);
  std::memcpy(a.data(), v.data(), v.size() * sizeof(T));
  return a;
}

// How many node inputs and graph outputs read each value, by ValueId.
std::vector<int> ReaderCounts(const Graph& g);

// For a node about to be rewritten as an int8 kernel: marks in `dropped` (by node index) the
// dequantizes of its inputs 0 and 1 that it alone reads, and the quantize of a weight that only
// such a dequantize reads, so that the rewrite does not copy them (folded, they would be float
// copies of the weight).
void DropDequantizedOperands(const Graph& g, const Node& node, const std::vector<int>& readers,
                             std::vector<bool>& dropped);

}  // namespace tunefarm::graph
