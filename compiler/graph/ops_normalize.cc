// Type inference of the normalizing ops: batch_norm, softmax and lrn keep their input's type.
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

}  // namespace tunefarm::graph
