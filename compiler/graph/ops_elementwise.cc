// Type inference of the elementwise and broadcasting ops: the output has the (broadcast) shape
// and the dtype of the inputs.
#include <cmath>

#include "absl/strings/str_cat.h"
#include "compiler/graph/op_inference.h"

namespace tunefarm::graph {
namespace {

InferResult Unary(const InferContext& ctx) {
  absl::Status s = ExpectInputCount(ctx, 1, 1);
  if (!s.ok()) return s;
  return std::vector<TensorType>{ctx.inputs[0]};
}

InferResult UnaryFloat(const InferContext& ctx) {
  absl::Status s = ExpectInputCount(ctx, 1, 1);
  if (s.ok()) s = ExpectFloat(ctx, 0);
  if (!s.ok()) return s;
  return std::vector<TensorType>{ctx.inputs[0]};
}

InferResult Binary(const InferContext& ctx) {
  absl::Status s = ExpectInputCount(ctx, 2, 2);
  if (s.ok()) s = ExpectSameDtype(ctx);
  if (!s.ok()) return s;
  absl::StatusOr<std::vector<int64_t>> shape =
      BroadcastShapes(ctx, ctx.inputs[0].shape, ctx.inputs[1].shape);
  if (!shape.ok()) return shape.status();
  return OneOutput(ctx, ctx.inputs[0].dtype, *std::move(shape));
}

}  // namespace

InferResult InferRelu(const InferContext& ctx) { return Unary(ctx); }
InferResult InferSigmoid(const InferContext& ctx) { return UnaryFloat(ctx); }
InferResult InferTanh(const InferContext& ctx) { return UnaryFloat(ctx); }
InferResult InferExp(const InferContext& ctx) { return UnaryFloat(ctx); }
InferResult InferIdentity(const InferContext& ctx) { return Unary(ctx); }
InferResult InferHardSwish(const InferContext& ctx) { return UnaryFloat(ctx); }

InferResult InferClip(const InferContext& ctx) {
  absl::StatusOr<double> lo = ctx.node.attrs.Float("min", -INFINITY);
  if (!lo.ok()) return ctx.Annotate(lo.status());
  absl::StatusOr<double> hi = ctx.node.attrs.Float("max", INFINITY);
  if (!hi.ok()) return ctx.Annotate(hi.status());
  if (std::isnan(*lo) || std::isnan(*hi)) return ctx.Error("min and max must not be NaN");
  return Unary(ctx);
}

InferResult InferHardSigmoid(const InferContext& ctx) {
  for (const char* name : {"alpha", "beta"}) {
    absl::StatusOr<double> v = ctx.node.attrs.Float(name, 0);
    if (!v.ok()) return ctx.Annotate(v.status());
  }
  return UnaryFloat(ctx);
}

InferResult InferAdd(const InferContext& ctx) { return Binary(ctx); }
InferResult InferSub(const InferContext& ctx) { return Binary(ctx); }
InferResult InferMul(const InferContext& ctx) { return Binary(ctx); }
InferResult InferDiv(const InferContext& ctx) { return Binary(ctx); }

}  // namespace tunefarm::graph
