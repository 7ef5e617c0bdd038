// Type inference of the ops that move elements without computing: flatten, reshape, transpose,
// concat and pad.
#include <numeric>

#include "absl/strings/str_cat.h"
#include "compiler/graph/op_inference.h"

namespace tunefarm::graph {

InferResult InferFlatten(const InferContext& ctx) {
  absl::Status s = ExpectInputCount(ctx, 1, 1);
  if (!s.ok()) return s;
  const TensorType& x = ctx.inputs[0];
  absl::StatusOr<int64_t> axis = ctx.node.attrs.Int("axis", 1);
  if (!axis.ok()) return ctx.Annotate(axis.status());
  absl::StatusOr<int> a = NormalizeAxis(ctx, *axis, x.rank(), "axis", /*inclusive=*/true);
  if (!a.ok()) return a.status();
  int64_t outer = 1, inner = 1;
  for (int i = 0; i < x.rank(); ++i) (i < *a ? outer : inner) *= x.shape[i];
  return OneOutput(ctx, x.dtype, {outer, inner});
}

InferResult InferReshape(const InferContext& ctx) {
  absl::Status s = ExpectInputCount(ctx, 1, 1);
  if (!s.ok()) return s;
  const TensorType& x = ctx.inputs[0];
  absl::StatusOr<std::vector<int64_t>> shape = ctx.node.attrs.Ints("shape", {});
  absl::StatusOr<int64_t> allow_zero = ctx.node.attrs.Int("allow_zero", 0);
  if (!shape.ok()) return ctx.Annotate(shape.status());
  if (!allow_zero.ok()) return ctx.Annotate(allow_zero.status());
  if (!ctx.node.attrs.Has("shape")) return ctx.Error("attribute 'shape' is required");
  std::vector<int64_t> out = *shape;
  int infer_at = -1;
  int64_t known = 1;
  for (size_t i = 0; i < out.size(); ++i) {
    if (out[i] == 0 && !*allow_zero) {
      if (i >= x.shape.size()) {
        return ctx.Error(absl::StrCat("shape ", ShapeToString(*shape), " copies dimension ", i,
                                      " of ", x.ToString(), ", which it lacks"));
      }
      out[i] = x.shape[i];
    }
    if (out[i] == -1) {
      if (infer_at >= 0) return ctx.Error("shape has more than one -1");
      infer_at = static_cast<int>(i);
      continue;
    }
    if (out[i] < 0 || out[i] > kMaxElements) {
      return ctx.Error(absl::StrCat("shape ", ShapeToString(*shape), " has an invalid size"));
    }
    if (__builtin_mul_overflow(known, out[i], &known) || known > kMaxElements) {
      return ctx.Error(absl::StrCat("shape ", ShapeToString(*shape), " is too large"));
    }
  }
  int64_t total = *x.NumElements();
  if (infer_at >= 0) {
    if (known == 0 || total % known != 0) {
      return ctx.Error(
          absl::StrCat("cannot reshape ", x.ToString(), " to ", ShapeToString(*shape)));
    }
    out[infer_at] = total / known;
  } else if (known != total) {
    return ctx.Error(absl::StrCat("cannot reshape ", x.ToString(), " (", total, " elements) to ",
                                  ShapeToString(out), " (", known, " elements)"));
  }
  return OneOutput(ctx, x.dtype, std::move(out));
}

InferResult InferTranspose(const InferContext& ctx) {
  absl::Status s = ExpectInputCount(ctx, 1, 1);
  if (!s.ok()) return s;
  const TensorType& x = ctx.inputs[0];
  std::vector<int64_t> reversed(x.rank());
  std::iota(reversed.rbegin(), reversed.rend(), 0);
  absl::StatusOr<std::vector<int64_t>> perm = ctx.node.attrs.Ints("perm", reversed);
  if (!perm.ok()) return ctx.Annotate(perm.status());
  std::vector<bool> seen(x.rank(), false);
  bool valid = static_cast<int>(perm->size()) == x.rank();
  for (size_t i = 0; valid && i < perm->size(); ++i) {
    int64_t p = (*perm)[i];
    valid = p >= 0 && p < x.rank() && !seen[p];
    if (valid) seen[p] = true;
  }
  if (!valid) {
    return ctx.Error(absl::StrCat("perm ", ShapeToString(*perm), " is not a permutation of ",
                                  x.rank(), " axes"));
  }
  std::vector<int64_t> out(x.rank());
  for (int i = 0; i < x.rank(); ++i) out[i] = x.shape[(*perm)[i]];
  return OneOutput(ctx, x.dtype, std::move(out));
}

InferResult InferConcat(const InferContext& ctx) {
  absl::Status s = ExpectInputCount(ctx, 1, SIZE_MAX);
  if (s.ok()) s = ExpectSameDtype(ctx);
  if (!s.ok()) return s;
  if (!ctx.node.attrs.Has("axis")) return ctx.Error("attribute 'axis' is required");
  absl::StatusOr<int64_t> axis = ctx.node.attrs.Int("axis", 0);
  if (!axis.ok()) return ctx.Annotate(axis.status());
  const TensorType& first = ctx.inputs[0];
  absl::StatusOr<int> a = NormalizeAxis(ctx, *axis, first.rank(), "axis");
  if (!a.ok()) return a.status();
  std::vector<int64_t> out = first.shape;
  out[*a] = 0;
  for (size_t i = 0; i < ctx.inputs.size(); ++i) {
    const TensorType& t = ctx.inputs[i];
    bool same = t.rank() == first.rank();
    for (int d = 0; same && d < t.rank(); ++d) same = d == *a || t.shape[d] == first.shape[d];
    if (!same) {
      return ctx.Error(absl::StrCat("input ", i, " ", t.ToString(), " does not match input 0 ",
                                    first.ToString(), " outside axis ", *a));
    }
    out[*a] += t.shape[*a];  // each at most 2^48 and the inputs are few: no overflow
  }
  return OneOutput(ctx, first.dtype, std::move(out));
}

InferResult InferPad(const InferContext& ctx) {
  absl::Status s = ExpectInputCount(ctx, 1, 1);
  if (!s.ok()) return s;
  const TensorType& x = ctx.inputs[0];
  absl::StatusOr<std::vector<int64_t>> pads = ctx.node.attrs.Ints("pads", {});
  if (!pads.ok()) return ctx.Annotate(pads.status());
  absl::StatusOr<double> value = ctx.node.attrs.Float("value", 0.0);
  if (!value.ok()) return ctx.Annotate(value.status());
  if (static_cast<int>(pads->size()) != 2 * x.rank()) {
    return ctx.Error(
        absl::StrCat("pads ", ShapeToString(*pads), " must have 2 x ", x.rank(), " values"));
  }
  std::vector<int64_t> out = x.shape;
  for (int d = 0; d < x.rank(); ++d) {
    int64_t begin = (*pads)[d], end = (*pads)[d + x.rank()];
    if (begin < -kMaxElements || begin > kMaxElements || end < -kMaxElements ||
        end > kMaxElements || out[d] + begin + end < 0) {
      return ctx.Error(absl::StrCat("pads ", ShapeToString(*pads), " do not fit ", x.ToString()));
    }
    out[d] += begin + end;
  }
  return OneOutput(ctx, x.dtype, std::move(out));
}

}  // namespace tunefarm::graph
