// Type inference of the math ops beyond the four arithmetic ones: unary (a function by name),
// pow/maximum/minimum/prelu, reduce, the comparisons and logic (bool results), where and cast.
#include <algorithm>

#include "absl/strings/str_cat.h"
#include "compiler/graph/op_inference.h"
#include "compiler/topi/elementwise.h"
#include "compiler/topi/reduce.h"
#include "compiler/topi/unary_math.h"
#include "runtime/data_type.h"

namespace tunefarm::graph {
namespace {

bool IsFloatType(const TensorType& t) { return t.dtype.code == kDLFloat; }

InferResult BroadcastMath(const InferContext& ctx, bool floats_only) {
  absl::Status s = ExpectInputCount(ctx, 2, 2);
  if (s.ok()) s = ExpectSameDtype(ctx);
  if (s.ok() && floats_only) s = ExpectFloat(ctx, 0);
  if (!s.ok()) return s;
  absl::StatusOr<std::vector<int64_t>> shape =
      BroadcastShapes(ctx, ctx.inputs[0].shape, ctx.inputs[1].shape);
  if (!shape.ok()) return shape.status();
  return OneOutput(ctx, ctx.inputs[0].dtype, *std::move(shape));
}

// `axes` (every axis when absent) as distinct indices.
absl::StatusOr<std::vector<int>> ReducedAxes(const InferContext& ctx) {
  const int rank = ctx.inputs[0].rank();
  std::vector<int64_t> all(rank);
  for (int d = 0; d < rank; ++d) all[d] = d;
  absl::StatusOr<std::vector<int64_t>> axes = ctx.node.attrs.Ints("axes", all);
  if (!axes.ok()) return ctx.Annotate(axes.status());
  std::vector<int> out;
  for (int64_t a : *axes) {
    absl::StatusOr<int> d = NormalizeAxis(ctx, a, rank, "axes");
    if (!d.ok()) return d.status();
    if (std::find(out.begin(), out.end(), *d) != out.end()) {
      return ctx.Error(absl::StrCat("axis ", a, " is repeated in 'axes'"));
    }
    out.push_back(*d);
  }
  return out;
}

}  // namespace

InferResult InferUnary(const InferContext& ctx) {
  absl::Status s = ExpectInputCount(ctx, 1, 1);
  if (!s.ok()) return s;
  absl::StatusOr<std::string> name = ctx.node.attrs.String("fn", "");
  if (!name.ok()) return ctx.Annotate(name.status());
  std::optional<topi::UnaryFn> fn = topi::UnaryFnFromName(*name);
  if (!fn) return ctx.Error(absl::StrCat("unknown function '", *name, "'"));
  if (!IsFloatType(ctx.inputs[0]) && !topi::UnaryFnTakesIntegers(*fn)) {
    return ctx.Error(absl::StrCat(*name, " needs a float input, not ", ctx.inputs[0].ToString()));
  }
  for (const char* param : {"alpha", "gamma"}) {
    absl::StatusOr<double> v = ctx.node.attrs.Float(param, 0);
    if (!v.ok()) return ctx.Annotate(v.status());
  }
  if (*fn == topi::UnaryFn::kCelu && ctx.node.attrs.Float("alpha", 0).value_or(0) == 0) {
    return ctx.Error("celu's alpha must not be 0");
  }
  return std::vector<TensorType>{ctx.inputs[0]};
}

InferResult InferPow(const InferContext& ctx) { return BroadcastMath(ctx, true); }

InferResult InferTrilu(const InferContext& ctx) {
  absl::Status s = ExpectInputCount(ctx, 1, 1);
  if (!s.ok()) return s;
  if (ctx.inputs[0].rank() < 2) {
    return ctx.Error(
        absl::StrCat("needs a matrix or a batch of them, not ", ctx.inputs[0].ToString()));
  }
  absl::StatusOr<int64_t> upper = ctx.node.attrs.Int("upper", 1);
  if (!upper.ok()) return ctx.Annotate(upper.status());
  if (*upper != 0 && *upper != 1)
    return ctx.Error(absl::StrCat("upper must be 0 or 1, not ", *upper));
  absl::StatusOr<int64_t> k = ctx.node.attrs.Int("k", 0);
  if (!k.ok()) return ctx.Annotate(k.status());
  return std::vector<TensorType>{ctx.inputs[0]};
}

InferResult InferMod(const InferContext& ctx) {
  absl::StatusOr<int64_t> fmod = ctx.node.attrs.Int("fmod", 0);
  if (!fmod.ok()) return ctx.Annotate(fmod.status());
  if (*fmod != 0 && *fmod != 1) return ctx.Error(absl::StrCat("fmod must be 0 or 1, not ", *fmod));
  // A float remainder has one meaning here, C's fmod: ONNX asks for fmod 1 on floats.
  if (*fmod == 0 && !ctx.inputs.empty() && IsFloatType(ctx.inputs[0])) {
    return ctx.Error(absl::StrCat("a float mod needs fmod 1 (C's fmod), got fmod 0 for ",
                                  ctx.inputs[0].ToString()));
  }
  return BroadcastMath(ctx, false);
}
InferResult InferMaximum(const InferContext& ctx) { return BroadcastMath(ctx, false); }
InferResult InferMinimum(const InferContext& ctx) { return BroadcastMath(ctx, false); }

InferResult InferPRelu(const InferContext& ctx) {
  absl::StatusOr<std::vector<TensorType>> out = BroadcastMath(ctx, true);
  if (!out.ok()) return out;
  // The slope stretches to x, never the other way.
  if ((*out)[0].shape != ctx.inputs[0].shape) {
    return ctx.Error(absl::StrCat("slope ", ctx.inputs[1].ToString(), " does not broadcast to ",
                                  ctx.inputs[0].ToString()));
  }
  return out;
}

InferResult InferReduce(const InferContext& ctx) {
  absl::Status s = ExpectInputCount(ctx, 1, 1);
  if (!s.ok()) return s;
  absl::StatusOr<std::string> name = ctx.node.attrs.String("fn", "");
  if (!name.ok()) return ctx.Annotate(name.status());
  std::optional<topi::ReduceFn> fn = topi::ReduceFnFromName(*name);
  if (!fn) return ctx.Error(absl::StrCat("unknown reduction '", *name, "'"));
  const TensorType& x = ctx.inputs[0];
  if (!IsFloatType(x) && !topi::ReduceFnTakesIntegers(*fn)) {
    return ctx.Error(absl::StrCat(*name, " needs a float input, not ", x.ToString()));
  }
  absl::StatusOr<std::vector<int>> axes = ReducedAxes(ctx);
  if (!axes.ok()) return axes.status();
  absl::StatusOr<int64_t> keep = ctx.node.attrs.Int("keep_dims", 1);
  if (!keep.ok()) return ctx.Annotate(keep.status());
  std::vector<int64_t> shape;
  for (int d = 0; d < x.rank(); ++d) {
    const bool reduced = std::find(axes->begin(), axes->end(), d) != axes->end();
    if (reduced && x.shape[d] == 0) {
      return ctx.Error(absl::StrCat("axis ", d, " of ", x.ToString(), " is empty"));
    }
    if (!reduced) {
      shape.push_back(x.shape[d]);
    } else if (*keep != 0) {
      shape.push_back(1);
    }
  }
  return OneOutput(ctx, x.dtype, std::move(shape));
}

namespace {

constexpr DLDataType kBool = {kDLUInt, 1, 1};

bool IsBool(const TensorType& t) { return t.dtype.code == kDLUInt && t.dtype.bits == 1; }

}  // namespace

InferResult InferCompare(const InferContext& ctx) {
  absl::StatusOr<std::vector<TensorType>> out = BroadcastMath(ctx, false);
  if (!out.ok()) return out;
  absl::StatusOr<std::string> fn = ctx.node.attrs.String("fn", "");
  if (!fn.ok()) return ctx.Annotate(fn.status());
  if (!topi::CompareFnFromName(*fn)) return ctx.Error("unknown comparison '" + *fn + "'");
  (*out)[0].dtype = kBool;
  return out;
}

InferResult InferLogical(const InferContext& ctx) {
  absl::StatusOr<std::vector<TensorType>> out = BroadcastMath(ctx, false);
  if (!out.ok()) return out;
  absl::StatusOr<std::string> fn = ctx.node.attrs.String("fn", "");
  if (!fn.ok()) return ctx.Annotate(fn.status());
  if (!topi::LogicalFnFromName(*fn)) return ctx.Error("unknown logical function '" + *fn + "'");
  if (!IsBool(ctx.inputs[0])) return ctx.Error("operands must be bool");
  return out;
}

InferResult InferLogicalNot(const InferContext& ctx) {
  absl::Status s = ExpectInputCount(ctx, 1, 1);
  if (!s.ok()) return s;
  if (!IsBool(ctx.inputs[0])) return ctx.Error("the operand must be bool");
  return std::vector<TensorType>{ctx.inputs[0]};
}

InferResult InferWhere(const InferContext& ctx) {
  absl::Status s = ExpectInputCount(ctx, 3, 3);
  if (!s.ok()) return s;
  const TensorType& cond = ctx.inputs[0];
  if (!IsBool(cond)) return ctx.Error("the condition " + cond.ToString() + " must be bool");
  if (!runtime::SameDataType(ctx.inputs[1].dtype, ctx.inputs[2].dtype)) {
    return ctx.Error("the two values must have one dtype");
  }
  absl::StatusOr<std::vector<int64_t>> values =
      BroadcastShapes(ctx, ctx.inputs[1].shape, ctx.inputs[2].shape);
  if (!values.ok()) return values.status();
  absl::StatusOr<std::vector<int64_t>> shape = BroadcastShapes(ctx, cond.shape, *values);
  if (!shape.ok()) return shape.status();
  return OneOutput(ctx, ctx.inputs[1].dtype, *std::move(shape));
}

InferResult InferCast(const InferContext& ctx) {
  absl::Status s = ExpectInputCount(ctx, 1, 1);
  if (!s.ok()) return s;
  absl::StatusOr<std::string> to = ctx.node.attrs.String("to", "");
  if (!to.ok()) return ctx.Annotate(to.status());
  absl::StatusOr<DLDataType> dtype = runtime::ParseDataType(*to);
  if (!dtype.ok()) return ctx.Error("attribute 'to': " + std::string(dtype.status().message()));
  return OneOutput(ctx, *dtype, ctx.inputs[0].shape);
}

}  // namespace tunefarm::graph
