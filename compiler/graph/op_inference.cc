#include "compiler/graph/op_inference.h"

#include "absl/strings/str_cat.h"
#include "runtime/data_type.h"

namespace tunefarm::graph {

absl::Status ExpectInputCount(const InferContext& ctx, size_t min, size_t max) {
  size_t n = ctx.inputs.size();
  if (n >= min && n <= max) return absl::OkStatus();
  std::string wanted = min == max ? absl::StrCat(min) : absl::StrCat(min, " to ", max);
  return ctx.Error(absl::StrCat("expects ", wanted, " inputs, got ", n));
}

absl::Status ExpectRank(const InferContext& ctx, size_t index, int rank, const char* what) {
  const TensorType& t = ctx.inputs[index];
  if (t.rank() == rank) return absl::OkStatus();
  return ctx.Error(absl::StrCat(what, " must have rank ", rank, ", got ", t.ToString()));
}

absl::Status ExpectFloat(const InferContext& ctx, size_t index) {
  const TensorType& t = ctx.inputs[index];
  if (t.dtype.code == kDLFloat || t.dtype.code == kDLBfloat) return absl::OkStatus();
  return ctx.Error(absl::StrCat("input ", index, " must be floating point, got ", t.ToString()));
}

absl::Status ExpectSameDtype(const InferContext& ctx) {
  for (size_t i = 1; i < ctx.inputs.size(); ++i) {
    if (!runtime::SameDataType(ctx.inputs[i].dtype, ctx.inputs[0].dtype)) {
      return ctx.Error(absl::StrCat("input ", i, " is ", ctx.inputs[i].ToString(),
                                    " but input 0 is ", ctx.inputs[0].ToString()));
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<int> NormalizeAxis(const InferContext& ctx, int64_t axis, int rank, const char* attr,
                                  bool inclusive) {
  int64_t limit = inclusive ? rank + 1 : rank;
  int64_t normalized = axis < 0 ? axis + rank : axis;
  if (normalized < 0 || normalized >= limit) {
    return ctx.Error(absl::StrCat(attr, " ", axis, " is out of range for rank ", rank));
  }
  return static_cast<int>(normalized);
}

absl::StatusOr<std::vector<int64_t>> BroadcastShapes(const InferContext& ctx,
                                                     const std::vector<int64_t>& a,
                                                     const std::vector<int64_t>& b) {
  size_t rank = std::max(a.size(), b.size());
  std::vector<int64_t> out(rank);
  for (size_t i = 0; i < rank; ++i) {
    int64_t da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    int64_t db = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (da != db && da != 1 && db != 1) {
      return ctx.Error(absl::StrCat("shapes ", ShapeToString(a), " and ", ShapeToString(b),
                                    " do not broadcast"));
    }
    out[i] = da == 1 ? db : da;
  }
  return out;
}

InferResult OneOutput(const InferContext& ctx, DLDataType dtype, std::vector<int64_t> shape) {
  TensorType t{dtype, std::move(shape)};
  absl::StatusOr<int64_t> n = t.NumElements();
  if (!n.ok()) return ctx.Error(absl::StrCat("output: ", n.status().message()));
  return std::vector<TensorType>{std::move(t)};
}

}  // namespace tunefarm::graph
