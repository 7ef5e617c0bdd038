// The TE compute of every graph op: a node's outputs as tensor expressions over its inputs', from
// compiler/topi. What lowers a node, or a fused group of nodes, to a kernel; op_evaluate.h runs
// one node with it.
#pragma once

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler/graph/node.h"
#include "compiler/graph/tensor_type.h"
#include "compiler/te/tensor.h"
#include "compiler/topi/conv2d_int8.h"
#include "compiler/topi/dense_int8.h"
#include "compiler/topi/gemm.h"
#include "compiler/topi/softmax.h"
#include "compiler/topi/window.h"

namespace tunefarm::graph {

// The templates a fused kernel can schedule its group with, by the anchor's computation.
enum class AnchorTemplate : uint8_t {
  kNone,
  kConv2d,
  kDepthwiseConv2d,
  kPool2d,
  kConv2dNchwc,
  kDepthwiseConv2dNchwc,
  kConv2dWinogradNchwc,
  kPool2dNchwc,
  kGemm,        // gemm.h's GEMM template (gemm without a transposed A, alpha 1: the product is C)
  kDenseInt8,   // dense_int8.h's template (the dot intrinsic), its dequantizing scale the epilogue
  kConv2dInt8,  // conv2d_int8.h's blocked template (the dot intrinsic), dequantized in the epilogue
  kSoftmax,     // softmax.h's row template (softmax over the last axis, no epilogue)
};

// An op whose output comes from one reduction a topi template tiles (conv2d with groups 1,
// depthwise conv2d with multiplier 1, max/average pooling, blocked or not, and the blocked
// convolutions): the
// tensors that template takes.
struct AnchorTensors {
  AnchorTemplate kind = AnchorTemplate::kNone;
  te::Tensor data, weight, padded;      // weight: undefined for pooling
  te::Tensor reduced;                   // the window's Reduce (a conv's bias comes after it)
  te::Tensor out;                       // the template's own output (pool: the average's division)
  topi::Window2d window;                // the convolution's or pool's strides, padding and dilation
  topi::GemmTensors gemm;               // kGemm: the product's tensors
  topi::DenseInt8Tensors dense_int8;    // kDenseInt8: the int8 product's tensors
  topi::Conv2dInt8Tensors conv2d_int8;  // kConv2dInt8: the int8 convolution's tensors
  topi::SoftmaxTensors softmax;         // kSoftmax: the three passes' tensors
};

// A Winograd convolution's inner stages, which its template schedules (conv2d_winograd.h).
struct WinogradStages {
  te::Tensor rows, tiles, product;
  int64_t tile = 0;  // m of F(m x m, 3x3); 0: not a Winograd convolution
};

// The tensors of one op's computation.
struct OpTensors {
  std::vector<te::Tensor> outputs;  // one per node output, in order
  // The stages between the inputs and the outputs (padding, a transposed operand, batch norm's
  // per-channel scale), which a schedule inlines or computes. A stage lives only as long as a
  // Tensor of it (readers hold its buffer, not its operation), so keep these while a schedule
  // over the outputs is in use.
  std::vector<te::Tensor> stages;
  AnchorTensors anchor;  // kind kNone when no template applies
  WinogradStages winograd;
};

// How computes shape their tensors for the device that runs them.
struct ComputeOptions {
  // Convolutions compute rows of whole CPU vectors (vector_rows.h) and crop them; a GPU computes
  // exactly the output, one element per thread register.
  bool whole_vector_rows = true;
};

// The tensors of `node` computed from `inputs` (one per node input, in order, with constant
// shapes). The node is type-checked first (InferOutputTypes), so an error names the node as
// inference does; the outputs have exactly the inferred shapes.
absl::StatusOr<OpTensors> ComputeOp(const Node& node, const std::vector<te::Tensor>& inputs,
                                    const ComputeOptions& options = {});

// The static type of a tensor with constant extents, or InvalidArgument naming it.
absl::StatusOr<TensorType> TypeOfTensor(const te::Tensor& t);

// A placeholder of `type` named `name`.
te::Tensor PlaceholderOf(const TensorType& type, const std::string& name);

}  // namespace tunefarm::graph
