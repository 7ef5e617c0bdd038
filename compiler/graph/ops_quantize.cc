// Type inference of quantize and dequantize (ONNX QuantizeLinear, DequantizeLinear): the shape is
// x's; the dtype the zero point's (quantize) or float32 (dequantize). And of the int8 products
// the quantized passes make: dense_int8 (a Linear layer), conv2d_int8 and its blocked form.
#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "compiler/graph/op_inference.h"
#include "runtime/data_type.h"

namespace tunefarm::graph {
namespace {

bool IsQuantizedByte(const DLDataType& t) {
  return (t.code == kDLInt || t.code == kDLUInt) && t.bits == 8 && t.lanes == 1;
}

// scale and zero_point: one element, or one per index of the normalized axis of x.
absl::StatusOr<int> CheckQuantParameters(const InferContext& ctx) {
  absl::Status s = ExpectInputCount(ctx, 3, 3);
  if (!s.ok()) return s;
  const TensorType& x = ctx.inputs[0];
  absl::StatusOr<int64_t> axis = ctx.node.attrs.Int("axis", 1);
  if (!axis.ok()) return ctx.Annotate(axis.status());
  auto elements = [](const TensorType& p) { return p.rank() == 0 ? 1 : p.shape[0]; };
  // Per tensor, the axis is not used (ONNX's default of 1 may not even exist in x).
  if (ctx.inputs[1].rank() <= 1 && ctx.inputs[2].rank() <= 1 && elements(ctx.inputs[1]) == 1 &&
      elements(ctx.inputs[2]) == 1) {
    if (!runtime::SameDataType(ctx.inputs[1].dtype, DLDataType{kDLFloat, 32, 1})) {
      return ctx.Error("the scale " + ctx.inputs[1].ToString() + " must be float32");
    }
    return 0;
  }
  absl::StatusOr<int> a = NormalizeAxis(ctx, *axis, std::max(x.rank(), 1), "axis");
  if (!a.ok()) return a.status();
  if (!runtime::SameDataType(ctx.inputs[1].dtype, DLDataType{kDLFloat, 32, 1})) {
    return ctx.Error("the scale " + ctx.inputs[1].ToString() + " must be float32");
  }
  static constexpr const char* kNames[] = {"scale", "zero_point"};
  for (size_t i = 1; i < 3; ++i) {
    const TensorType& p = ctx.inputs[i];
    const int64_t n = elements(p);
    const bool per_axis = x.rank() > 0 && n == x.shape[*a];
    if (p.rank() > 1 || (n != 1 && !per_axis)) {
      return ctx.Error(absl::StrCat(kNames[i - 1], " ", p.ToString(), " must have one element or ",
                                    x.rank() > 0 ? absl::StrCat(x.shape[*a]) : std::string("1"),
                                    " (one per index of axis ", *a, " of ", x.ToString(), ")"));
    }
  }
  return *a;
}

// x_zero_point: a uint8 value.
absl::Status CheckZeroPoint(const InferContext& ctx) {
  absl::StatusOr<int64_t> zero = ctx.node.attrs.Int("x_zero_point", 0);
  if (!zero.ok()) return ctx.Annotate(zero.status());
  if (*zero < 0 || *zero > 255) return ctx.Error("x_zero_point must be a uint8 value");
  return absl::OkStatus();
}

// Inputs 2..4 of an int8 product: int32 w_sum, float32 scale and bias, each of `shape`.
absl::Status CheckEpilogueParameters(const InferContext& ctx, const std::vector<int64_t>& shape) {
  static constexpr const char* kNames[] = {"w_sum", "scale", "bias"};
  const std::string dims = absl::StrCat("[", absl::StrJoin(shape, ","), "]");
  for (size_t i = 2; i < 5; ++i) {
    const TensorType& p = ctx.inputs[i];
    const DLDataType want = i == 2 ? DLDataType{kDLInt, 32, 1} : DLDataType{kDLFloat, 32, 1};
    if (!runtime::SameDataType(p.dtype, want) || p.shape != shape) {
      return ctx.Error(absl::StrCat(kNames[i - 2], " ", p.ToString(), " must be ",
                                    i == 2 ? "int32 " : "float32 ", dims));
    }
  }
  return absl::OkStatus();
}

// uint8 data of `rank` and an int8 weight of `weight_rank`.
absl::Status ExpectInt8ConvInputs(const InferContext& ctx, int rank, int weight_rank) {
  absl::Status s = ExpectInputCount(ctx, 5, 5);
  if (s.ok()) s = CheckZeroPoint(ctx);
  if (!s.ok()) return s;
  const TensorType &x = ctx.inputs[0], &w = ctx.inputs[1];
  if (!runtime::SameDataType(x.dtype, DLDataType{kDLUInt, 8, 1}) || x.rank() != rank) {
    return ctx.Error(absl::StrCat("x ", x.ToString(), " must be uint8 of rank ", rank));
  }
  if (!runtime::SameDataType(w.dtype, DLDataType{kDLInt, 8, 1}) || w.rank() != weight_rank) {
    return ctx.Error(
        absl::StrCat("the weight ", w.ToString(), " must be int8 of rank ", weight_rank));
  }
  return absl::OkStatus();
}

// The float32 output of a convolution over x's last two spatial axes (H, W at 2 and 3).
InferResult Int8ConvOutput(const InferContext& ctx, int64_t kh, int64_t kw,
                           std::vector<int64_t> shape) {
  const std::vector<int64_t>& x = ctx.inputs[0].shape;
  const int64_t kernel[2] = {kh, kw};
  absl::StatusOr<Window2d> window = ReadWindow2d(ctx, kernel);
  if (!window.ok()) return window.status();
  absl::StatusOr<std::vector<int64_t>> hw = WindowOutputSize(ctx, *window, x[2], x[3]);
  if (!hw.ok()) return hw.status();
  shape[2] = (*hw)[0];
  shape[3] = (*hw)[1];
  return OneOutput(ctx, DLDataType{kDLFloat, 32, 1}, std::move(shape));
}

}  // namespace

InferResult InferQuantize(const InferContext& ctx) {
  absl::StatusOr<int> axis = CheckQuantParameters(ctx);
  if (!axis.ok()) return axis.status();
  if (!runtime::SameDataType(ctx.inputs[0].dtype, DLDataType{kDLFloat, 32, 1})) {
    return ctx.Error("x " + ctx.inputs[0].ToString() + " must be float32");
  }
  const DLDataType out = ctx.inputs[2].dtype;
  if (!IsQuantizedByte(out)) {
    return ctx.Error("the zero point " + ctx.inputs[2].ToString() + " must be int8 or uint8");
  }
  return OneOutput(ctx, out, ctx.inputs[0].shape);
}

InferResult InferDequantize(const InferContext& ctx) {
  absl::StatusOr<int> axis = CheckQuantParameters(ctx);
  if (!axis.ok()) return axis.status();
  const DLDataType x = ctx.inputs[0].dtype;
  if (!IsQuantizedByte(x) && !runtime::SameDataType(x, DLDataType{kDLInt, 32, 1})) {
    return ctx.Error("x " + ctx.inputs[0].ToString() + " must be int8, uint8 or int32");
  }
  if (!runtime::SameDataType(ctx.inputs[2].dtype, x)) {
    return ctx.Error("the zero point " + ctx.inputs[2].ToString() + " must have x's dtype");
  }
  return OneOutput(ctx, DLDataType{kDLFloat, 32, 1}, ctx.inputs[0].shape);
}

InferResult InferDenseInt8(const InferContext& ctx) {
  absl::Status s = ExpectInputCount(ctx, 5, 5);
  if (s.ok()) s = CheckZeroPoint(ctx);
  if (!s.ok()) return s;
  const TensorType &x = ctx.inputs[0], &w = ctx.inputs[1], &sum = ctx.inputs[2];
  if (!runtime::SameDataType(x.dtype, DLDataType{kDLUInt, 8, 1}) || x.rank() != 2) {
    return ctx.Error("x " + x.ToString() + " must be uint8 [M, K]");
  }
  if (!runtime::SameDataType(w.dtype, DLDataType{kDLInt, 8, 1}) || w.rank() != 4 ||
      w.shape[3] != 4 || w.shape[1] * 4 != x.shape[1]) {
    return ctx.Error("the weight " + w.ToString() + " must be int8 [N/L, K/4, L, 4] for x " +
                     x.ToString());
  }
  if (!runtime::SameDataType(sum.dtype, DLDataType{kDLInt, 32, 1}) || sum.rank() != 1) {
    return ctx.Error("w_sum " + sum.ToString() + " must be int32 [N]");
  }
  const int64_t n = sum.shape[0];
  if ((n + w.shape[2] - 1) / w.shape[2] != w.shape[0]) {
    return ctx.Error(absl::StrCat("the weight ", w.ToString(), " does not hold ", n, " rows"));
  }
  if (absl::Status p = CheckEpilogueParameters(ctx, {n}); !p.ok()) return p;
  return OneOutput(ctx, DLDataType{kDLFloat, 32, 1}, {x.shape[0], n});
}

InferResult InferConv2dInt8(const InferContext& ctx) {
  if (absl::Status s = ExpectInt8ConvInputs(ctx, 4, 4); !s.ok()) return s;
  const std::vector<int64_t>&x = ctx.inputs[0].shape, &w = ctx.inputs[1].shape;
  if (w[1] != x[1]) {
    return ctx.Error(absl::StrCat("the weight ", ctx.inputs[1].ToString(), " must read the ", x[1],
                                  " channels of x ", ctx.inputs[0].ToString()));
  }
  if (absl::Status s = CheckEpilogueParameters(ctx, {w[0]}); !s.ok()) return s;
  return Int8ConvOutput(ctx, w[2], w[3], {x[0], w[0], 0, 0});
}

InferResult InferConv2dInt8Nchwc(const InferContext& ctx) {
  if (absl::Status s = ExpectInt8ConvInputs(ctx, 5, 7); !s.ok()) return s;
  const std::vector<int64_t>&x = ctx.inputs[0].shape, &w = ctx.inputs[1].shape;
  if (x[4] % 4 != 0 || w[1] != x[1] || w[4] * 4 != x[4] || w[6] != 4) {
    return ctx.Error(absl::StrCat("the weight ", ctx.inputs[1].ToString(), " must be [OB,", x[1],
                                  ",KH,KW,", x[4] / 4, ",L,4] for x ", ctx.inputs[0].ToString(),
                                  " (whose block must be a multiple of 4)"));
  }
  if (absl::Status s = CheckEpilogueParameters(ctx, {w[0], w[5]}); !s.ok()) return s;
  absl::StatusOr<int64_t> channels = ctx.node.attrs.Int("channels", w[0] * w[5]);
  if (!channels.ok()) return ctx.Annotate(channels.status());
  if (*channels < 1 || *channels > w[0] * w[5]) {
    return ctx.Error(absl::StrCat("channels ", *channels, " must be 1 to ", w[0] * w[5]));
  }
  return Int8ConvOutput(ctx, w[2], w[3], {x[0], w[0], 0, 0, w[5]});
}

}  // namespace tunefarm::graph
