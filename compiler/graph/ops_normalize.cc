// Type inference of the normalizing ops: batch_norm, softmax, log_softmax, layer_norm and lrn keep
// their input's type.
#include "absl/strings/str_cat.h"
#include "compiler/graph/op_inference.h"

namespace tunefarm::graph {

InferResult InferBatchNorm(const InferContext& ctx) {
  absl::Status s = ExpectInputCount(ctx, 5, 5);
  if (s.ok()) s = ExpectSameDtype(ctx);
  if (s.ok()) s = ExpectFloat(ctx, 0);
  if (!s.ok()) return s;
  const TensorType& x = ctx.inputs[0];
  if (x.rank() < 2) return ctx.Error(absl::StrCat("data ", x.ToString(), " has no channel axis"));
  static constexpr const char* kNames[] = {"scale", "bias", "mean", "var"};
  for (size_t i = 1; i < 5; ++i) {
    if (ctx.inputs[i].shape != std::vector<int64_t>{x.shape[1]}) {
      return ctx.Error(absl::StrCat(kNames[i - 1], " ", ctx.inputs[i].ToString(),
                                    " must have shape [", x.shape[1], "]"));
    }
  }
  absl::StatusOr<double> epsilon = ctx.node.attrs.Float("epsilon", 1e-5);
  if (!epsilon.ok()) return ctx.Annotate(epsilon.status());
  if (!(*epsilon >= 0)) return ctx.Error("epsilon must not be negative");
  return std::vector<TensorType>{x};
}

InferResult InferSoftmax(const InferContext& ctx) {
  absl::Status s = ExpectInputCount(ctx, 1, 1);
  if (s.ok()) s = ExpectFloat(ctx, 0);
  if (!s.ok()) return s;
  absl::StatusOr<int64_t> axis = ctx.node.attrs.Int("axis", -1);
  if (!axis.ok()) return ctx.Annotate(axis.status());
  absl::StatusOr<int> normalized = NormalizeAxis(ctx, *axis, ctx.inputs[0].rank(), "axis");
  if (!normalized.ok()) return normalized.status();
  return std::vector<TensorType>{ctx.inputs[0]};
}

InferResult InferLrn(const InferContext& ctx) {
  absl::Status s = ExpectInputCount(ctx, 1, 1);
  if (s.ok()) s = ExpectFloat(ctx, 0);
  if (!s.ok()) return s;
  if (ctx.inputs[0].rank() < 3) return ctx.Error("data must have rank 3 or more");
  absl::StatusOr<int64_t> size = ctx.node.attrs.Int("size", 0);
  if (!size.ok()) return ctx.Annotate(size.status());
  if (*size < 1) return ctx.Error("attribute 'size' must be at least 1");
  for (const char* name : {"alpha", "beta", "bias"}) {
    absl::StatusOr<double> v = ctx.node.attrs.Float(name, 0);
    if (!v.ok()) return ctx.Annotate(v.status());
  }
  return std::vector<TensorType>{ctx.inputs[0]};
}

InferResult InferLogSoftmax(const InferContext& ctx) { return InferSoftmax(ctx); }
InferResult InferHardmax(const InferContext& ctx) { return InferSoftmax(ctx); }

InferResult InferCumSum(const InferContext& ctx) {
  absl::Status s = ExpectInputCount(ctx, 1, 1);
  if (!s.ok()) return s;
  const TensorType& x = ctx.inputs[0];
  if (x.dtype.code == kDLUInt && x.dtype.bits == 1) return ctx.Error("cannot sum booleans");
  absl::StatusOr<int64_t> axis = ctx.node.attrs.Int("axis", 0);
  if (!axis.ok()) return ctx.Annotate(axis.status());
  absl::StatusOr<int> a = NormalizeAxis(ctx, *axis, x.rank(), "axis");
  if (!a.ok()) return a.status();
  for (const char* flag : {"exclusive", "reverse"}) {
    absl::StatusOr<int64_t> v = ctx.node.attrs.Int(flag, 0);
    if (!v.ok()) return ctx.Annotate(v.status());
    if (*v != 0 && *v != 1) return ctx.Error(absl::StrCat(flag, " must be 0 or 1, not ", *v));
  }
  return std::vector<TensorType>{x};
}

InferResult InferLayerNorm(const InferContext& ctx) {
  absl::Status s = ExpectInputCount(ctx, 1, 3);
  if (s.ok()) s = ExpectSameDtype(ctx);
  if (s.ok()) s = ExpectFloat(ctx, 0);
  if (!s.ok()) return s;
  const TensorType& x = ctx.inputs[0];
  absl::StatusOr<int64_t> axis = ctx.node.attrs.Int("axis", -1);
  if (!axis.ok()) return ctx.Annotate(axis.status());
  absl::StatusOr<int> a = NormalizeAxis(ctx, *axis, x.rank(), "axis");
  if (!a.ok()) return a.status();
  absl::StatusOr<double> epsilon = ctx.node.attrs.Float("epsilon", 1e-5);
  if (!epsilon.ok()) return ctx.Annotate(epsilon.status());
  if (!(*epsilon >= 0)) return ctx.Error("epsilon must not be negative");
  // scale and bias broadcast to the normalized axes [axis, rank).
  const std::vector<int64_t> normalized(x.shape.begin() + *a, x.shape.end());
  static constexpr const char* kNames[] = {"scale", "bias"};
  for (size_t i = 1; i < ctx.inputs.size(); ++i) {
    const TensorType& p = ctx.inputs[i];
    absl::StatusOr<std::vector<int64_t>> b = BroadcastShapes(ctx, normalized, p.shape);
    if (!b.ok() || *b != normalized) {
      return ctx.Error(absl::StrCat(kNames[i - 1], " ", p.ToString(),
                                    " does not broadcast to the normalized axes ",
                                    ShapeToString(normalized)));
    }
  }
  absl::StatusOr<int64_t> statistics = ctx.node.attrs.Int("statistics", 0);
  if (!statistics.ok()) return ctx.Annotate(statistics.status());
  if (*statistics == 0) return std::vector<TensorType>{x};
  // The mean and 1 / standard deviation, one per slice, the normalized axes kept as 1s.
  TensorType stat = x;
  for (int d = *a; d < x.rank(); ++d) stat.shape[d] = 1;
  return std::vector<TensorType>{x, stat, stat};
}

}  // namespace tunefarm::graph
