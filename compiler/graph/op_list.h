// The single list of graph ops. The OpKind enum, the registry table and the inference functions'
// declarations all expand from TF_GRAPH_OPS: adding an op is one line here, one inference function
// and its entry in the list below.
//
// Meaning of the graph IR, written down once:
// - Every value has a static TensorType (dtype and fully known shape). Layout is NCHW for the 2-D
//   ops (data [N,C,H,W], conv weights [O, C/groups, KH, KW]) until a layout pass says otherwise.
// - Broadcasting is numpy's (ONNX "multidirectional"): shapes align at the right, and a dimension
//   of 1 stretches. "Unidirectional" (gemm's C) broadcasts one side only.
// - Axes may be negative (counted from the end) in attributes; inference validates them.
// - 2-D window attributes: pads = [top, left, bottom, right] (ONNX's begin-then-end order),
//   strides = [sh, sw], dilations = [dh, dw], kernel = [kh, kw]. An output size is
//   floor((in + begin + end - (k - 1) * d - 1) / s) + 1, or ceil with ceil_mode = 1, where a last
//   window that would start in the bottom/right padding is dropped.
// - Ops are pure. Parameters that ONNX passes as constant inputs (Reshape's shape, Pad's pads,
//   Clip's bounds) are attributes here: the importer reads them.
//
// The ops, their inputs -> outputs and attributes (defaults in parentheses):
//   relu(x)  clip(x) min, max (unbounded)  sigmoid(x)  tanh(x)  exp(x)  identity(x)
//   hard_sigmoid(x) alpha (0.2), beta (0.5): max(0, min(1, alpha * x + beta))
//   hard_swish(x): x * hard_sigmoid(x) with alpha = 1/6, beta = 0.5
//   add, sub, mul, div (a, b): broadcast; both operands of one dtype
//   unary(x) fn, alpha, gamma: an elementwise math function of topi/unary_math.h by name ("erf",
//     "leaky_relu", "gelu" ...); alpha and gamma are the parameters of those that take them
//   pow, maximum, minimum (a, b): broadcast, as add; pow on floats
//   trilu(x) upper (1), k (0): over the last two axes (row i, column j), x where j - i >= k
//     (upper) or j - i <= k (lower), else 0
//   mod(a, b) fmod (0): broadcast; fmod 0 (integers only) takes the sign of b (Python's %), fmod 1
//     that of a (C's fmod and %); the remainder of a division by an integer 0 is undefined
//   prelu(x, slope): x < 0 ? slope * x : x, slope broadcast to x (unidirectionally)
//   compare(a, b) fn ("equal", "less", "less_equal", "greater", "greater_equal"): broadcast,
//     bool output
//   logical(a, b) fn ("and", "or", "xor"): on bools, broadcast; logical_not(x)
//   where(cond, a, b): cond ? a : b, the three broadcast; cond bool
//   cast(x) to (a dtype string: "float32", "int64", "bool" ...): float to integer truncates, to
//     bool is != 0
//   quantize(x, scale, zero_point) axis (1): ONNX QuantizeLinear, in zero_point's dtype (int8 or
//     uint8); scale and zero_point one element or one per index of `axis`
//   dequantize(x, scale, zero_point) axis (1): ONNX DequantizeLinear, float32 from int8, uint8 or
//     int32 x; parameters as quantize's
//   dense_int8(x, packed_w, w_sum, scale, bias) x_zero_point: made by the quantized_dense pass,
//     never imported: y[m, n] = (sum_k x[m,k] w[n,k] - x_zero_point * w_sum[n]) * scale[n] +
//     bias[n] in float32, for uint8 x [M,K], int8 w packed [ceil(N/L),K/4,L,4] (dense_int8.h),
//     int32 w_sum [N] (each row's sum), float32 scale and bias [N]
//   conv2d_int8(x, w, w_sum, scale, bias) strides, pads, dilations, x_zero_point: made by the
//     quantized_conv pass, never imported: y[n, o] = (sum x * w[o] - x_zero_point * w_sum[o]) *
//     scale[o] + bias[o] in float32, for uint8 x [N,C,H,W] padded with x_zero_point, int8 w
//     [O,C,KH,KW], int32 w_sum [O] (each filter's sum), float32 scale and bias [O]
//   reduce(x) fn, axes, keep_dims (1): a reduction of topi/reduce.h by name ("sum", "mean",
//     "log_sum_exp" ...) over `axes` (all when absent), reduced axes kept as 1s or dropped
//   gather(data, indices) axis (0): numpy's take; indices int32/int64, negative ones count from
//     the end, out-of-range ones are clamped (a constant index out of range is refused at import)
//   gather_elements(data, indices) axis (0): out[i] = data[i with i[axis] = indices[i]], the
//     shape of indices (same rank as data); indices clamped as gather's
//   expand(x) shape: x broadcast to `shape` broadcast with x's (ONNX Expand)
//   tile(x) repeats: x repeated repeats[d] times along each axis d
//   resize(x) sizes, scales (out/in when absent), mode ("nearest"), coordinates ("half_pixel"),
//     rounding ("round_prefer_floor"), cubic_a (-0.75), exclude_outside (0): topi/resize.h
//   conv2d(data, weight[, bias]) strides, pads, dilations (1s and 0s), groups (1); floats or
//     int32 (exact integer sums), as matmul
//   gemm(a, b[, c]) trans_a, trans_b (0), alpha, beta (1.0): alpha * a' b' + beta * c, a' and b'
//     2-D, c unidirectionally broadcast to [M, N]; with b_block (0) > 0, b is pack_gemm_weight's
//     [N/b_block][K][b_block] (trans_b 0)
//   matmul(a, b): numpy matmul, batch dimensions broadcast, 1-D operands promoted and squeezed;
//     floats or int32
//   batch_norm(x, scale, bias, mean, var) epsilon (1e-5): inference form, per channel (axis 1)
//   max_pool2d(x) kernel, strides, pads, dilations, ceil_mode (0)
//   avg_pool2d(x) kernel, strides, pads, ceil_mode, count_include_pad (0)
//     (both also over blocked [N,CB,H,W,c], made by the layout rewrite: the output is blocked too)
//   global_avg_pool2d(x), global_max_pool2d(x): [N,C,H,W] -> [N,C,1,1] (blocked: [N,CB,1,1,c])
//   softmax(x) axis (-1): over one axis
//   log_softmax(x) axis (-1): log(softmax(x)), computed as x - max - log(sum(exp(x - max)))
//   hardmax(x) axis (-1): 1 at the first maximum along the axis, 0 elsewhere
//   cumsum(x) axis (0), exclusive (0), reverse (0): the running sum along the axis, in x's type;
//     exclusive leaves each position's own element out, reverse sums from the end back
//   layer_norm(x[, scale[, bias]]) axis (-1), epsilon (1e-5): normalized over the axes from
//     `axis` to the last (mean and biased variance), then * scale + bias, broadcast to those axes;
//     with statistics (0) = 1, also -> (mean, 1 / sqrt(variance + epsilon)), normalized axes as 1s
//   lrn(x) size, alpha (1e-4), beta (0.75), bias (1.0): across channels
//   flatten(x) axis (1): to 2-D [prod(d[:axis]), prod(d[axis:])]
//   reshape(x) shape, allow_zero (0): a 0 copies the input's dimension (unless allow_zero), one
//     -1 is inferred
//   transpose(x) perm (reversed)
//   concat(x...) axis
//   pad(x) pads (2 * rank: all begins, then all ends; negative crops), value (0.0): constant mode
//   slice(x) starts, ends, axes (0..n-1), steps (1s): ONNX's clamping rules
//   split(x) -> (y...) axis (0), sizes
//   squeeze(x) axes (every dimension of size 1)
//   unsqueeze(x) axes: positions in the output
// Packed weights, made by the pack_weights pass (pack_weights.h), never imported:
//   pack_gemm_weight(b) block, trans_b (0): b [K,N] ([N,K] with trans_b) -> [N/block][K][block]
// Blocked layouts (NCHW[c]c), made by the layout rewrite pass (layout_rewrite.h), never imported:
//   to_nchwc(x) block: [N,C,H,W] -> [N,ceil(C/block),H,W,block], the channels past C zero
//   from_nchwc(x) channels: [N,CB,H,W,c] -> [N,channels,H,W], channels <= CB*c (padding dropped)
//   conv2d_nchwc(data, weight[, bias]) strides, pads, dilations, in_channels, channels (the
//     real channel counts; all by default): data [N,CB,H,W,ic], weight [OB,CB,KH,KW,ic,oc],
//     bias [OB,oc] -> [N,OB,OH,OW,oc]
//   conv2d_int8_nchwc(data, weight, w_sum, scale, bias) strides, pads, dilations, x_zero_point,
//     channels: conv2d_int8 blocked, uint8 data [N,CB,H,W,c] (c a multiple of 4), int8 weight
//     [OB,CB,KH,KW,c/4,L,4] (conv2d_int8.h), w_sum, scale and bias [OB,L] -> float32 [N,OB,OH,OW,L]
//   group_conv2d_nchwc(data, weight[, bias]) as conv2d_nchwc, and out_blocks_per_group: grouped,
//     data [N,CB,H,W,b], weight [OB,K,KH,KW,b,b]; each run of out_blocks_per_group output blocks
//     reads its own K data blocks ((OB / out_blocks_per_group) * K == CB); a block holding several
//     groups has zeros between them in its weight
//   depthwise_conv2d_nchwc(data, weight[, bias]) strides, pads, dilations, channels: data
//     [N,CB,H,W,c], weight [CB,KH,KW,c], bias [CB,c] -> [N,CB,OH,OW,c] (channel multiplier 1)
#pragma once

// X(Name, "name", pattern kind)
#define TF_GRAPH_OPS(X)                                               \
  X(Relu, "relu", kElementwise)                                       \
  X(Clip, "clip", kElementwise)                                       \
  X(Sigmoid, "sigmoid", kElementwise)                                 \
  X(Tanh, "tanh", kElementwise)                                       \
  X(Exp, "exp", kElementwise)                                         \
  X(Identity, "identity", kElementwise)                               \
  X(HardSigmoid, "hard_sigmoid", kElementwise)                        \
  X(HardSwish, "hard_swish", kElementwise)                            \
  X(Add, "add", kBroadcast)                                           \
  X(Sub, "sub", kBroadcast)                                           \
  X(Mul, "mul", kBroadcast)                                           \
  X(Div, "div", kBroadcast)                                           \
  X(Unary, "unary", kElementwise)                                     \
  X(Pow, "pow", kBroadcast)                                           \
  X(Mod, "mod", kBroadcast)                                           \
  X(Maximum, "maximum", kBroadcast)                                   \
  X(Minimum, "minimum", kBroadcast)                                   \
  X(PRelu, "prelu", kBroadcast)                                       \
  X(Compare, "compare", kBroadcast)                                   \
  X(Logical, "logical", kBroadcast)                                   \
  X(LogicalNot, "logical_not", kElementwise)                          \
  X(Where, "where", kBroadcast)                                       \
  X(Cast, "cast", kElementwise)                                       \
  X(Quantize, "quantize", kElementwise)                               \
  X(Dequantize, "dequantize", kElementwise)                           \
  X(DenseInt8, "dense_int8", kOutEWiseFusable)                        \
  X(Conv2dInt8, "conv2d_int8", kOutEWiseFusable)                      \
  X(Reduce, "reduce", kCommReduce)                                    \
  X(Gather, "gather", kInjective)                                     \
  X(Trilu, "trilu", kInjective)                                       \
  X(GatherElements, "gather_elements", kInjective)                    \
  X(Expand, "expand", kInjective)                                     \
  X(Tile, "tile", kInjective)                                         \
  X(Resize, "resize", kOpaque)                                        \
  X(LogSoftmax, "log_softmax", kOpaque)                               \
  X(Hardmax, "hardmax", kOpaque)                                      \
  X(CumSum, "cumsum", kOpaque)                                        \
  X(LayerNorm, "layer_norm", kOpaque)                                 \
  X(Conv2d, "conv2d", kOutEWiseFusable)                               \
  X(Gemm, "gemm", kOutEWiseFusable)                                   \
  X(MatMul, "matmul", kOutEWiseFusable)                               \
  X(BatchNorm, "batch_norm", kBroadcast)                              \
  X(MaxPool2d, "max_pool2d", kOutEWiseFusable)                        \
  X(AvgPool2d, "avg_pool2d", kOutEWiseFusable)                        \
  X(GlobalAvgPool2d, "global_avg_pool2d", kOutEWiseFusable)           \
  X(GlobalMaxPool2d, "global_max_pool2d", kOutEWiseFusable)           \
  X(Softmax, "softmax", kOpaque)                                      \
  X(Lrn, "lrn", kOpaque)                                              \
  X(Flatten, "flatten", kInjective)                                   \
  X(Reshape, "reshape", kInjective)                                   \
  X(Transpose, "transpose", kInjective)                               \
  X(Concat, "concat", kInjective)                                     \
  X(Pad, "pad", kInjective)                                           \
  X(Slice, "slice", kInjective)                                       \
  X(Split, "split", kInjective)                                       \
  X(Squeeze, "squeeze", kInjective)                                   \
  X(Unsqueeze, "unsqueeze", kInjective)                               \
  X(ToNchwc, "to_nchwc", kInjective)                                  \
  X(FromNchwc, "from_nchwc", kInjective)                              \
  X(Conv2dNchwc, "conv2d_nchwc", kOutEWiseFusable)                    \
  X(DepthwiseConv2dNchwc, "depthwise_conv2d_nchwc", kOutEWiseFusable) \
  X(Conv2dInt8Nchwc, "conv2d_int8_nchwc", kOutEWiseFusable)           \
  X(WinogradWeight, "winograd_weight", kOpaque)                       \
  X(Conv2dWinogradNchwc, "conv2d_winograd_nchwc", kOutEWiseFusable)   \
  X(PackGemmWeight, "pack_gemm_weight", kOpaque)                      \
  X(GroupConv2dNchwc, "group_conv2d_nchwc", kOutEWiseFusable)
