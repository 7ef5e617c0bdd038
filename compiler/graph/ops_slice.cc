// Type inference of the ops that select or regroup dimensions: slice, split, squeeze, unsqueeze.
#include <algorithm>

#include "absl/strings/str_cat.h"
#include "compiler/graph/op_inference.h"

namespace tunefarm::graph {
namespace {

// The number of elements ONNX's Slice takes from a dimension of `dim` (clamping as it does).
int64_t SliceCount(int64_t dim, int64_t start, int64_t end, int64_t step) {
  if (dim == 0) return 0;
  if (start < 0) start += dim;
  if (end < 0) end += dim;
  if (step > 0) {
    start = std::clamp<int64_t>(start, 0, dim);
    end = std::clamp<int64_t>(end, 0, dim);
    return end > start ? (end - start - 1) / step + 1 : 0;
  }
  start = std::clamp<int64_t>(start, 0, dim - 1);
  end = std::clamp<int64_t>(end, -1, dim - 1);
  return start > end ? (start - end - 1) / -step + 1 : 0;
}

// Distinct normalized axes, or an error.
absl::StatusOr<std::vector<int>> ReadAxes(const InferContext& ctx, const std::vector<int64_t>& axes,
                                          int rank, bool inclusive) {
  std::vector<int> out;
  for (int64_t axis : axes) {
    absl::StatusOr<int> a = NormalizeAxis(ctx, axis, rank, "axis", inclusive);
    if (!a.ok()) return a.status();
    if (std::find(out.begin(), out.end(), *a) != out.end()) {
      return ctx.Error(absl::StrCat("axis ", axis, " appears twice"));
    }
    out.push_back(*a);
  }
  return out;
}

}  // namespace

InferResult InferSlice(const InferContext& ctx) {
  absl::Status s = ExpectInputCount(ctx, 1, 1);
  if (!s.ok()) return s;
  const TensorType& x = ctx.inputs[0];
  const Attributes& attrs = ctx.node.attrs;
  absl::StatusOr<std::vector<int64_t>> starts = attrs.Ints("starts", {});
  absl::StatusOr<std::vector<int64_t>> ends = attrs.Ints("ends", {});
  if (!starts.ok()) return ctx.Annotate(starts.status());
  if (!ends.ok()) return ctx.Annotate(ends.status());
  std::vector<int64_t> all(starts->size());
  for (size_t i = 0; i < all.size(); ++i) all[i] = static_cast<int64_t>(i);
  absl::StatusOr<std::vector<int64_t>> axes = attrs.Ints("axes", all);
  absl::StatusOr<std::vector<int64_t>> steps =
      attrs.Ints("steps", std::vector<int64_t>(all.size(), 1));
  if (!axes.ok()) return ctx.Annotate(axes.status());
  if (!steps.ok()) return ctx.Annotate(steps.status());
  size_t n = starts->size();
  if (ends->size() != n || axes->size() != n || steps->size() != n) {
    return ctx.Error("starts, ends, axes and steps must have the same length");
  }
  absl::StatusOr<std::vector<int>> normalized = ReadAxes(ctx, *axes, x.rank(), false);
  if (!normalized.ok()) return normalized.status();
  std::vector<int64_t> out = x.shape;
  for (size_t i = 0; i < n; ++i) {
    int64_t step = (*steps)[i];
    if (step == 0 || step == INT64_MIN) return ctx.Error("steps must not be 0");
    int a = (*normalized)[i];
    out[a] = SliceCount(x.shape[a], (*starts)[i], (*ends)[i], step);
  }
  return OneOutput(ctx, x.dtype, std::move(out));
}

InferResult InferSplit(const InferContext& ctx) {
  absl::Status s = ExpectInputCount(ctx, 1, 1);
  if (!s.ok()) return s;
  const TensorType& x = ctx.inputs[0];
  absl::StatusOr<int64_t> axis = ctx.node.attrs.Int("axis", 0);
  if (!axis.ok()) return ctx.Annotate(axis.status());
  absl::StatusOr<int> a = NormalizeAxis(ctx, *axis, x.rank(), "axis");
  if (!a.ok()) return a.status();
  absl::StatusOr<std::vector<int64_t>> sizes = ctx.node.attrs.Ints("sizes", {});
  if (!sizes.ok()) return ctx.Annotate(sizes.status());
  if (sizes->empty()) return ctx.Error("attribute 'sizes' is required");
  int64_t total = 0;
  std::vector<TensorType> outs;
  for (int64_t size : *sizes) {
    if (size < 0 || size > x.shape[*a]) return ctx.Error("sizes must be in 0..dimension");
    total += size;  // both at most 2^48: no overflow
    if (total > x.shape[*a]) break;
    TensorType t = x;
    t.shape[*a] = size;
    outs.push_back(std::move(t));
  }
  if (total != x.shape[*a]) {
    return ctx.Error(absl::StrCat("sizes ", ShapeToString(*sizes), " do not add up to ",
                                  x.shape[*a], ", dimension ", *a, " of ", x.ToString()));
  }
  return outs;
}

InferResult InferSqueeze(const InferContext& ctx) {
  absl::Status s = ExpectInputCount(ctx, 1, 1);
  if (!s.ok()) return s;
  const TensorType& x = ctx.inputs[0];
  absl::StatusOr<std::vector<int64_t>> axes = ctx.node.attrs.Ints("axes", {});
  if (!axes.ok()) return ctx.Annotate(axes.status());
  absl::StatusOr<std::vector<int>> normalized = ReadAxes(ctx, *axes, x.rank(), false);
  if (!normalized.ok()) return normalized.status();
  std::vector<int64_t> out;
  for (int d = 0; d < x.rank(); ++d) {
    bool listed = std::find(normalized->begin(), normalized->end(), d) != normalized->end();
    if (listed && x.shape[d] != 1) {
      return ctx.Error(absl::StrCat("cannot squeeze dimension ", d, " of ", x.ToString()));
    }
    bool drop = normalized->empty() ? x.shape[d] == 1 : listed;
    if (!drop) out.push_back(x.shape[d]);
  }
  return OneOutput(ctx, x.dtype, std::move(out));
}

InferResult InferUnsqueeze(const InferContext& ctx) {
  absl::Status s = ExpectInputCount(ctx, 1, 1);
  if (!s.ok()) return s;
  const TensorType& x = ctx.inputs[0];
  absl::StatusOr<std::vector<int64_t>> axes = ctx.node.attrs.Ints("axes", {});
  if (!axes.ok()) return ctx.Annotate(axes.status());
  if (axes->empty()) return ctx.Error("attribute 'axes' is required");
  int rank = x.rank() + static_cast<int>(axes->size());
  absl::StatusOr<std::vector<int>> normalized = ReadAxes(ctx, *axes, rank, false);
  if (!normalized.ok()) return normalized.status();
  std::vector<int64_t> out;
  size_t next = 0;
  for (int d = 0; d < rank; ++d) {
    bool inserted = std::find(normalized->begin(), normalized->end(), d) != normalized->end();
    out.push_back(inserted ? 1 : x.shape[next++]);
  }
  return OneOutput(ctx, x.dtype, std::move(out));
}

}  // namespace tunefarm::graph
