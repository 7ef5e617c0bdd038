// Type inference of the ops that read their input at computed positions, repeating, picking or
// interpolating elements: gather, expand, tile and resize.
#include "absl/strings/str_cat.h"
#include "compiler/graph/op_inference.h"
#include "compiler/graph/resize_attributes.h"

namespace tunefarm::graph {

InferResult InferGather(const InferContext& ctx) {
  absl::Status s = ExpectInputCount(ctx, 2, 2);
  if (!s.ok()) return s;
  const TensorType& data = ctx.inputs[0];
  const TensorType& indices = ctx.inputs[1];
  if (indices.dtype.code != kDLInt || (indices.dtype.bits != 32 && indices.dtype.bits != 64)) {
    return ctx.Error(absl::StrCat("indices ", indices.ToString(), " must be int32 or int64"));
  }
  if (data.rank() == 0) return ctx.Error("data must have at least one dimension");
  absl::StatusOr<int64_t> axis = ctx.node.attrs.Int("axis", 0);
  if (!axis.ok()) return ctx.Annotate(axis.status());
  absl::StatusOr<int> a = NormalizeAxis(ctx, *axis, data.rank(), "axis");
  if (!a.ok()) return a.status();
  if (data.shape[*a] == 0) return ctx.Error(absl::StrCat("axis ", *a, " of data is empty"));
  std::vector<int64_t> shape(data.shape.begin(), data.shape.begin() + *a);
  shape.insert(shape.end(), indices.shape.begin(), indices.shape.end());
  shape.insert(shape.end(), data.shape.begin() + *a + 1, data.shape.end());
  return OneOutput(ctx, data.dtype, std::move(shape));
}

InferResult InferGatherElements(const InferContext& ctx) {
  absl::Status s = ExpectInputCount(ctx, 2, 2);
  if (!s.ok()) return s;
  const TensorType& data = ctx.inputs[0];
  const TensorType& indices = ctx.inputs[1];
  if (indices.dtype.code != kDLInt || (indices.dtype.bits != 32 && indices.dtype.bits != 64)) {
    return ctx.Error(absl::StrCat("indices ", indices.ToString(), " must be int32 or int64"));
  }
  absl::StatusOr<int64_t> axis = ctx.node.attrs.Int("axis", 0);
  if (!axis.ok()) return ctx.Annotate(axis.status());
  if (data.rank() == 0) return ctx.Error("data must have at least one dimension");
  absl::StatusOr<int> a = NormalizeAxis(ctx, *axis, data.rank(), "axis");
  if (!a.ok()) return a.status();
  bool fits = indices.rank() == data.rank() && data.shape[*a] > 0;
  for (int d = 0; fits && d < data.rank(); ++d) {
    fits = d == *a || indices.shape[d] <= data.shape[d];
  }
  if (!fits) {
    return ctx.Error(absl::StrCat("indices ", indices.ToString(), " do not fit data ",
                                  data.ToString(), " along axis ", *a));
  }
  return OneOutput(ctx, data.dtype, indices.shape);
}

InferResult InferExpand(const InferContext& ctx) {
  absl::Status s = ExpectInputCount(ctx, 1, 1);
  if (!s.ok()) return s;
  absl::StatusOr<std::vector<int64_t>> shape = ctx.node.attrs.Ints("shape", {});
  if (!shape.ok()) return ctx.Annotate(shape.status());
  if (!ctx.node.attrs.Has("shape")) return ctx.Error("attribute 'shape' is required");
  for (int64_t d : *shape) {
    if (d < 0) return ctx.Error(absl::StrCat("shape ", ShapeToString(*shape), " is negative"));
  }
  absl::StatusOr<std::vector<int64_t>> out = BroadcastShapes(ctx, ctx.inputs[0].shape, *shape);
  if (!out.ok()) return out.status();
  return OneOutput(ctx, ctx.inputs[0].dtype, *std::move(out));
}

InferResult InferTile(const InferContext& ctx) {
  absl::Status s = ExpectInputCount(ctx, 1, 1);
  if (!s.ok()) return s;
  const TensorType& x = ctx.inputs[0];
  absl::StatusOr<std::vector<int64_t>> repeats = ctx.node.attrs.Ints("repeats", {});
  if (!repeats.ok()) return ctx.Annotate(repeats.status());
  if (static_cast<int>(repeats->size()) != x.rank()) {
    return ctx.Error(absl::StrCat("repeats ", ShapeToString(*repeats), " must have one entry per ",
                                  "axis of ", x.ToString()));
  }
  std::vector<int64_t> shape(x.rank());
  for (int d = 0; d < x.rank(); ++d) {
    if ((*repeats)[d] < 0) return ctx.Error("repeats must not be negative");
    if (__builtin_mul_overflow(x.shape[d], (*repeats)[d], &shape[d])) {
      return ctx.Error("the tiled shape is too large");
    }
  }
  return OneOutput(ctx, x.dtype, std::move(shape));
}

InferResult InferResize(const InferContext& ctx) {
  absl::Status s = ExpectInputCount(ctx, 1, 1);
  if (!s.ok()) return s;
  const TensorType& x = ctx.inputs[0];
  absl::StatusOr<ResizeAttributes> r = ReadResize(ctx.node.attrs);
  if (!r.ok()) return ctx.Annotate(r.status());
  if (static_cast<int>(r->params.sizes.size()) != x.rank() ||
      (!r->params.scales.empty() && static_cast<int>(r->params.scales.size()) != x.rank())) {
    return ctx.Error("sizes and scales must have one entry per axis of " + x.ToString());
  }
  for (int d = 0; d < x.rank(); ++d) {
    if (r->params.sizes[d] < 1 || x.shape[d] < 1) return ctx.Error("an axis is empty");
    if (!r->params.scales.empty() && !(r->params.scales[d] > 0)) {
      return ctx.Error("scales must be positive");
    }
  }
  if (r->params.mode != topi::ResizeMode::kNearest && x.dtype.code != kDLFloat) {
    return ctx.Error("linear and cubic modes need a float input");
  }
  return OneOutput(ctx, x.dtype, r->params.sizes);
}

}  // namespace tunefarm::graph
