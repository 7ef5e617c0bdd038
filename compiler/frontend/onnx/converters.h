// The ONNX ops the importer handles: one converter per op type, in tables by op family. A
// converter reads an ONNX node (its attributes, or the constant inputs that replaced them in
// later opsets) and adds graph ops, or folds the node into a constant when its inputs are known.
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "compiler/frontend/onnx/import_context.h"

namespace tunefarm::frontend::onnx {

using ConvertFn = absl::Status (*)(ImportContext& ctx, const NodeProto& node);

struct OnnxConverter {
  std::string_view op_type;
  ConvertFn convert;
  // Opsets below this use a form the converter does not read (0: every opset from 7).
  int64_t min_opset = 0;
};

std::span<const OnnxConverter> ElementwiseConverters();    // convert_elementwise.cc
std::span<const OnnxConverter> MathConverters();           // convert_math.cc
std::span<const OnnxConverter> NnConverters();             // convert_nn.cc
std::span<const OnnxConverter> NormalizeConverters();      // convert_normalize.cc
std::span<const OnnxConverter> ResizeConverters();         // convert_resize.cc
std::span<const OnnxConverter> TransformConverters();      // convert_transform.cc
std::span<const OnnxConverter> FoldConverters();           // convert_fold.cc
std::span<const OnnxConverter> QuantizeConverters();       // convert_quantize.cc
std::span<const OnnxConverter> QOperatorConverters();      // convert_qoperator.cc
std::span<const OnnxConverter> LossConverters();           // convert_loss.cc
std::span<const OnnxConverter> ConvTransposeConverters();  // convert_conv_transpose.cc
std::span<const OnnxConverter> IndexingConverters();       // convert_indexing.cc
std::span<const OnnxConverter> EinsumConverters();         // convert_einsum.cc

// A Conv-like node's graph attributes (groups, strides, pads with auto_pad resolved, dilations),
// its kernel read from the weight at input `weight_input` (Conv's 1, QLinearConv's 3).
absl::StatusOr<graph::Attributes> ConvAttributes(ImportContext& ctx, const NodeProto& node,
                                                 int weight_input);

// dequantize(input x, input scale, input zero) along `axis` as a graph value named after `node`
// and `suffix`; an absent zero point is 0 of x's dtype.
absl::StatusOr<graph::ValueId> AddDequantize(ImportContext& ctx, const NodeProto& node, int x,
                                             int scale, int zero, int64_t axis,
                                             const std::string& suffix);

// The converter of `op_type` in the default domain, or null.
const OnnxConverter* FindConverter(std::string_view op_type);

// Why `node` cannot be imported at `opset` (an unknown op, another domain, an attribute value or
// an output the converter does not handle), or "" when it can. Reads only the node itself, so
// every node is checked before anything is imported.
std::string UnsupportedReason(const NodeProto& node, int64_t opset);

}  // namespace tunefarm::frontend::onnx
