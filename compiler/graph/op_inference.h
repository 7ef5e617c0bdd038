// Type inference of the graph ops (one function per line of op_list.h, defined in ops_*.cc by op
// family) and the checks they share. Internal to compiler/graph: users call InferOutputTypes.
#pragma once

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler/graph/op_list.h"
#include "compiler/graph/op_registry.h"

namespace tunefarm::graph {

using InferResult = absl::StatusOr<std::vector<TensorType>>;

#define TF_DECLARE_INFER(Name, text, pattern) InferResult Infer##Name(const InferContext& ctx);
TF_GRAPH_OPS(TF_DECLARE_INFER)
#undef TF_DECLARE_INFER

// An error unless the node has between `min` and `max` inputs.
absl::Status ExpectInputCount(const InferContext& ctx, size_t min, size_t max);
// An error unless input `index` has `rank` dimensions (`what` names it: "data", "weight").
absl::Status ExpectRank(const InferContext& ctx, size_t index, int rank, const char* what);
// An error unless input `index` is a floating-point tensor.
absl::Status ExpectFloat(const InferContext& ctx, size_t index);
// An error unless every input has the dtype of input 0.
absl::Status ExpectSameDtype(const InferContext& ctx);

// `axis` (negative counts from the end) as an index into `rank` dimensions, or an error naming
// `attr`. With `inclusive`, `rank` itself is valid too (flatten's axis, a position after the
// last dimension).
absl::StatusOr<int> NormalizeAxis(const InferContext& ctx, int64_t axis, int rank, const char* attr,
                                  bool inclusive = false);

// numpy broadcasting of two shapes, or an error naming both.
absl::StatusOr<std::vector<int64_t>> BroadcastShapes(const InferContext& ctx,
                                                     const std::vector<int64_t>& a,
                                                     const std::vector<int64_t>& b);

// One output of `dtype` and `shape`, checked against kMaxElements.
InferResult OneOutput(const InferContext& ctx, DLDataType dtype, std::vector<int64_t> shape);

// The window of a 2-D conv or pool, read from the attributes and checked: kernel, strides and
// dilations at least 1, pads at least 0.
struct Window2d {
  int64_t kernel[2] = {1, 1};
  int64_t strides[2] = {1, 1};
  int64_t pads[4] = {0, 0, 0, 0};  // top, left, bottom, right
  int64_t dilations[2] = {1, 1};
  bool ceil_mode = false;
};

// Reads strides, pads, dilations and ceil_mode; the kernel from the "kernel" attribute when
// `kernel` is null (pools), else from `kernel` (a conv's weight shape).
absl::StatusOr<Window2d> ReadWindow2d(const InferContext& ctx, const int64_t* kernel);

// The output height and width of `window` over an input of `h` x `w` (op_list.h's formula).
absl::StatusOr<std::vector<int64_t>> WindowOutputSize(const InferContext& ctx,
                                                      const Window2d& window, int64_t h, int64_t w);

}  // namespace tunefarm::graph
