// Converters of ONNX's math ops beyond the four arithmetic ones: the unary functions and
// activations (Abs ... Gelu), Pow, Mod, PRelu, the comparisons and logic, Where, the variadic
// Max/Min/Sum/Mean, and every Reduce*.
#include <cmath>
#include <cstring>
#include <limits>

#include "absl/strings/str_cat.h"
#include "compiler/frontend/onnx/converters.h"
#include "compiler/frontend/onnx/tensor_proto.h"
#include "runtime/data_type.h"

namespace tunefarm::frontend::onnx {
namespace {

using graph::Attributes;
using graph::OpKind;

// A unary function of topi/unary_math.h with its ONNX parameters: alpha and gamma attributes and
// their defaults (NaN: the function takes none).
struct UnaryOp {
  const char* fn;
  double alpha = NAN;
  double gamma = NAN;
};

absl::Status EmitUnary(ImportContext& ctx, const NodeProto& node, const UnaryOp& op) {
  absl::StatusOr<graph::ValueId> x = ctx.Input(node, 0);
  if (!x.ok()) return x.status();
  Attributes attrs{{"fn", std::string(op.fn)}};
  if (!std::isnan(op.alpha)) {
    absl::StatusOr<double> alpha = ctx.AttrFloat(node, "alpha", op.alpha);
    if (!alpha.ok()) return alpha.status();
    attrs.Set("alpha", *alpha);
  }
  if (!std::isnan(op.gamma)) {
    absl::StatusOr<double> gamma = ctx.AttrFloat(node, "gamma", op.gamma);
    if (!gamma.ok()) return gamma.status();
    attrs.Set("gamma", *gamma);
  }
  return ctx.Emit(node, OpKind::kUnary, std::move(attrs), {*x});
}

template <const UnaryOp& kOp>
absl::Status UnaryFn(ImportContext& ctx, const NodeProto& node) {
  return EmitUnary(ctx, node, kOp);
}

constexpr UnaryOp kAbs{"abs"}, kNeg{"neg"}, kSign{"sign"}, kFloor{"floor"}, kCeil{"ceil"},
    kRound{"round"}, kSqrt{"sqrt"}, kReciprocal{"reciprocal"}, kLog{"log"}, kErf{"erf"},
    kSoftplus{"softplus"}, kSin{"sin"}, kCos{"cos"}, kTan{"tan"}, kSinh{"sinh"}, kCosh{"cosh"},
    kAsin{"asin"}, kAcos{"acos"}, kAtan{"atan"}, kAsinh{"asinh"}, kAcosh{"acosh"}, kAtanh{"atanh"},
    kSoftsign{"softsign"}, kMish{"mish"}, kElu{"elu", 1.0}, kCelu{"celu", 1.0},
    kLeakyRelu{"leaky_relu", 0.01}, kThresholdedRelu{"thresholded_relu", 1.0},
    // Selu's defaults are float32 values: ONNX's reference computes with them.
    kSelu{"selu", 1.67326319217681884765625, 1.05070102214813232421875};

// Shrink's parameters are lambd and bias: alpha and gamma of the unary op.
absl::Status Shrink(ImportContext& ctx, const NodeProto& node) {
  absl::StatusOr<double> lambd = ctx.AttrFloat(node, "lambd", 0.5);
  absl::StatusOr<double> bias = ctx.AttrFloat(node, "bias", 0.0);
  if (!lambd.ok()) return lambd.status();
  if (!bias.ok()) return bias.status();
  absl::StatusOr<graph::ValueId> x = ctx.Input(node, 0);
  if (!x.ok()) return x.status();
  return ctx.Emit(node, OpKind::kUnary,
                  {{"fn", std::string("shrink")}, {"alpha", *lambd}, {"gamma", *bias}}, {*x});
}

absl::Status Gelu(ImportContext& ctx, const NodeProto& node) {
  absl::StatusOr<std::string> approximate = ctx.AttrString(node, "approximate", "none");
  if (!approximate.ok()) return approximate.status();
  if (*approximate != "none" && *approximate != "tanh") {
    return ctx.Error(node, "approximate must be 'none' or 'tanh', not '" + *approximate + "'");
  }
  return EmitUnary(ctx, node, {*approximate == "tanh" ? "gelu_tanh" : "gelu"});
}

// Trilu's k is an optional constant int64 scalar input.
absl::Status Trilu(ImportContext& ctx, const NodeProto& node) {
  absl::StatusOr<int64_t> upper = ctx.AttrInt(node, "upper", 1);
  if (!upper.ok()) return upper.status();
  int64_t k = 0;
  if (ctx.HasInput(node, 1)) {
    absl::StatusOr<double> v = ctx.ConstantScalar(node, 1, "k");
    if (!v.ok()) return v.status();
    k = static_cast<int64_t>(*v);
  }
  absl::StatusOr<graph::ValueId> x = ctx.Input(node, 0);
  if (!x.ok()) return x.status();
  return ctx.Emit(node, OpKind::kTrilu, {{"upper", *upper}, {"k", k}}, {*x});
}

absl::Status Mod(ImportContext& ctx, const NodeProto& node) {
  absl::StatusOr<int64_t> fmod = ctx.AttrInt(node, "fmod", 0);
  if (!fmod.ok()) return fmod.status();
  absl::StatusOr<graph::ValueId> a = ctx.Input(node, 0);
  if (!a.ok()) return a.status();
  absl::StatusOr<graph::ValueId> b = ctx.Input(node, 1);
  if (!b.ok()) return b.status();
  return ctx.Emit(node, OpKind::kMod, {{"fmod", *fmod}}, {*a, *b});
}

template <OpKind kOp>
absl::Status MathBinary(ImportContext& ctx, const NodeProto& node) {
  absl::StatusOr<graph::ValueId> a = ctx.Input(node, 0);
  if (!a.ok()) return a.status();
  absl::StatusOr<graph::ValueId> b = ctx.Input(node, 1);
  if (!b.ok()) return b.status();
  return ctx.Emit(node, kOp, {}, {*a, *b});
}

// An integer base: ONNX's result has the base's type, as numpy's power(x, y).astype(x.dtype)
// gives it. Computed in double, which holds every integer power up to 2^53 exactly, and cast
// back (truncating, as that astype does).
absl::Status IntegerPow(ImportContext& ctx, const NodeProto& node) {
  absl::StatusOr<graph::TensorType> base = ctx.InputType(node, 0);
  absl::StatusOr<graph::ValueId> x = ctx.Input(node, 0);
  absl::StatusOr<graph::ValueId> y = ctx.Input(node, 1);
  if (!base.ok()) return base.status();
  if (!x.ok()) return x.status();
  if (!y.ok()) return y.status();
  const graph::Attributes as_double{{"to", std::string("float64")}};
  absl::StatusOr<graph::ValueId> xd = ctx.EmitInner(node, OpKind::kCast, "/base", as_double, {*x});
  if (!xd.ok()) return xd.status();
  absl::StatusOr<graph::ValueId> yd =
      ctx.EmitInner(node, OpKind::kCast, "/exponent", as_double, {*y});
  if (!yd.ok()) return yd.status();
  absl::StatusOr<graph::ValueId> power =
      ctx.EmitInner(node, OpKind::kPow, "/in_double", {}, {*xd, *yd});
  if (!power.ok()) return power.status();
  return ctx.Emit(node, OpKind::kCast, {{"to", runtime::DataTypeToString(base->dtype)}}, {*power});
}

// Pow's exponent may have another type than its base (an int64 2, a double 0.5): a constant
// exponent is converted to the base's type at import (exactly for the exponents models use), any
// other is cast in the graph. An integer base is IntegerPow.
absl::Status Pow(ImportContext& ctx, const NodeProto& node) {
  absl::StatusOr<graph::TensorType> base = ctx.InputType(node, 0);
  absl::StatusOr<graph::TensorType> exponent = ctx.InputType(node, 1);
  if (!base.ok()) return base.status();
  if (!exponent.ok()) return exponent.status();
  if (base->dtype.code == kDLInt || base->dtype.code == kDLUInt) return IntegerPow(ctx, node);
  if (base->dtype.code != kDLFloat) return ctx.Error(node, "the base must be a number tensor");
  if (runtime::SameDataType(exponent->dtype, base->dtype))
    return MathBinary<OpKind::kPow>(ctx, node);
  const runtime::NDArray* e = ctx.ConstantInput(node, 1);
  const DLDataType et = exponent->dtype;
  const bool numeric =
      (et.code == kDLFloat || et.code == kDLInt) && (et.bits == 32 || et.bits == 64);
  if (e == nullptr || !numeric) {
    if (et.code != kDLInt && et.code != kDLUInt && et.code != kDLFloat) {
      return ctx.Error(
          node, "the exponent must be a number tensor, not " + runtime::DataTypeToString(et));
    }
    // Any other exponent is cast to the base's type where it runs.
    absl::StatusOr<graph::ValueId> x = ctx.Input(node, 0);
    absl::StatusOr<graph::ValueId> y = ctx.Input(node, 1);
    if (!x.ok()) return x.status();
    if (!y.ok()) return y.status();
    absl::StatusOr<graph::ValueId> cast = ctx.EmitInner(
        node, OpKind::kCast, "/exponent", {{"to", runtime::DataTypeToString(base->dtype)}}, {*y});
    if (!cast.ok()) return cast.status();
    return ctx.Emit(node, OpKind::kPow, {}, {*x, *cast});
  }
  absl::StatusOr<runtime::NDArray> converted = runtime::NDArray::Empty(e->shape(), base->dtype);
  if (!converted.ok()) return converted.status();
  for (int64_t i = 0; i < e->NumElements(); ++i) {
    const void* p = e->data();
    const double v =
        et.code == kDLFloat
            ? (et.bits == 32 ? static_cast<const float*>(p)[i] : static_cast<const double*>(p)[i])
            : (et.bits == 32 ? static_cast<const int32_t*>(p)[i]
                             : static_cast<double>(static_cast<const int64_t*>(p)[i]));
    if (base->dtype.bits == 32) {
      static_cast<float*>(converted->data())[i] = static_cast<float>(v);
    } else {
      static_cast<double*>(converted->data())[i] = v;
    }
  }
  absl::StatusOr<graph::ValueId> x = ctx.Input(node, 0);
  if (!x.ok()) return x.status();
  graph::ValueId c =
      ctx.graph().AddConstant(node.input(1) + "/as_base_type", *std::move(converted));
  return ctx.Emit(node, OpKind::kPow, {}, {*x, c});
}

// Before opset 7 a 1-D slope of C values applies per channel (axis 1), not along the last axis.
absl::Status PRelu(ImportContext& ctx, const NodeProto& node) {
  absl::StatusOr<graph::TensorType> x = ctx.InputType(node, 0);
  absl::StatusOr<graph::TensorType> slope = ctx.InputType(node, 1);
  if (!x.ok()) return x.status();
  if (!slope.ok()) return slope.status();
  if (ctx.opset() >= 7 || slope->rank() != 1 || x->rank() < 3 || slope->shape[0] == 1) {
    return MathBinary<OpKind::kPRelu>(ctx, node);
  }
  absl::StatusOr<graph::ValueId> a = ctx.Input(node, 0);
  absl::StatusOr<graph::ValueId> b = ctx.Input(node, 1);
  if (!a.ok()) return a.status();
  if (!b.ok()) return b.status();
  std::vector<int64_t> per_channel(x->rank() - 1, 1);
  per_channel[0] = slope->shape[0];
  absl::StatusOr<std::vector<graph::ValueId>> shaped =
      ctx.graph().AddOp(OpKind::kReshape, ImportContext::PartName(node, "/per_channel"),
                        {{"shape", per_channel}}, {*b});
  if (!shaped.ok()) return ctx.Error(node, std::string(shaped.status().message()));
  return ctx.Emit(node, OpKind::kPRelu, {}, {*a, (*shaped)[0]});
}

// Equal, Less ... and And, Or, Xor: the compare or logical op with the function by name.
template <OpKind kOp, const char* kFn>
absl::Status NamedBinary(ImportContext& ctx, const NodeProto& node) {
  absl::StatusOr<graph::ValueId> a = ctx.Input(node, 0);
  if (!a.ok()) return a.status();
  absl::StatusOr<graph::ValueId> b = ctx.Input(node, 1);
  if (!b.ok()) return b.status();
  return ctx.Emit(node, kOp, {{"fn", std::string(kFn)}}, {*a, *b});
}

constexpr char kEqual[] = "equal", kLess[] = "less", kLessEqual[] = "less_equal",
               kGreater[] = "greater", kGreaterEqual[] = "greater_equal", kAnd[] = "and",
               kOr[] = "or", kXor[] = "xor";

absl::Status Not(ImportContext& ctx, const NodeProto& node) {
  absl::StatusOr<graph::ValueId> x = ctx.Input(node, 0);
  if (!x.ok()) return x.status();
  return ctx.Emit(node, OpKind::kLogicalNot, {}, {*x});
}

absl::Status Where(ImportContext& ctx, const NodeProto& node) {
  std::vector<graph::ValueId> inputs;
  for (int i = 0; i < 3; ++i) {
    absl::StatusOr<graph::ValueId> v = ctx.Input(node, i);
    if (!v.ok()) return v.status();
    inputs.push_back(*v);
  }
  return ctx.Emit(node, OpKind::kWhere, {}, std::move(inputs));
}

// Max, Min, Sum and Mean of any number of inputs: a chain of binary ops (Mean then scaled).
absl::Status Variadic(ImportContext& ctx, const NodeProto& node) {
  const std::string& type = node.op_type();
  const OpKind op = type == "Max"   ? OpKind::kMaximum
                    : type == "Min" ? OpKind::kMinimum
                                    : OpKind::kAdd;
  if (node.input_size() < 1) return ctx.Error(node, "needs at least one input");
  absl::StatusOr<graph::ValueId> acc = ctx.Input(node, 0);
  if (!acc.ok()) return acc.status();
  const bool mean = type == "Mean";
  const int n = node.input_size();
  if (n == 1 && !mean) return ctx.DefineValue(node, 0, *acc);
  graph::Graph& g = ctx.graph();
  for (int i = 1; i < n; ++i) {
    absl::StatusOr<graph::ValueId> next = ctx.Input(node, i);
    if (!next.ok()) return next.status();
    if (i == n - 1 && !mean) return ctx.Emit(node, op, {}, {*acc, *next});
    absl::StatusOr<std::vector<graph::ValueId>> out =
        g.AddOp(op, ImportContext::PartName(node, "/" + std::to_string(i)), {}, {*acc, *next});
    if (!out.ok()) return ctx.Error(node, std::string(out.status().message()));
    acc = (*out)[0];
  }
  absl::StatusOr<graph::TensorType> t = ctx.InputType(node, 0);
  if (!t.ok()) return t.status();
  if (t->dtype.code != kDLFloat || t->dtype.bits != 32) {
    return ctx.Error(node, "Mean is supported on float32");
  }
  absl::StatusOr<runtime::NDArray> scale = runtime::NDArray::Empty({}, t->dtype);
  if (!scale.ok()) return scale.status();
  *static_cast<float*>(scale->data()) = 1.0f / static_cast<float>(n);
  graph::ValueId c =
      g.AddConstant(ImportContext::PartName(node, "/inverse_count"), *std::move(scale));
  return ctx.Emit(node, OpKind::kMul, {}, {*acc, c});
}

// ONNX's Reduce* ops: axes as an attribute, or (ReduceSum from opset 13, the rest from 18) as an
// optional constant input, where noop_with_empty_axes makes an empty list a no-op.
absl::Status Reduce(ImportContext& ctx, const NodeProto& node) {
  static constexpr std::pair<std::string_view, const char*> kFns[] = {
      {"ReduceSum", "sum"},        {"ReduceMean", "mean"},
      {"ReduceMax", "max"},        {"ReduceMin", "min"},
      {"ReduceProd", "prod"},      {"ReduceL1", "l1"},
      {"ReduceL2", "l2"},          {"ReduceSumSquare", "sum_square"},
      {"ReduceLogSum", "log_sum"}, {"ReduceLogSumExp", "log_sum_exp"}};
  const char* fn = nullptr;
  for (const auto& [type, name] : kFns) {
    if (type == node.op_type()) fn = name;
  }
  absl::StatusOr<graph::ValueId> x = ctx.Input(node, 0);
  if (!x.ok()) return x.status();
  absl::StatusOr<int64_t> keep = ctx.AttrInt(node, "keepdims", 1);
  absl::StatusOr<int64_t> noop = ctx.AttrInt(node, "noop_with_empty_axes", 0);
  if (!keep.ok()) return keep.status();
  if (!noop.ok()) return noop.status();
  Attributes attrs{{"fn", std::string(fn)}, {"keep_dims", *keep != 0 ? int64_t{1} : int64_t{0}}};
  std::optional<std::vector<int64_t>> axes;
  if (ctx.HasInput(node, 1)) {
    absl::StatusOr<std::vector<int64_t>> v = ctx.ConstantInts(node, 1, "axes");
    if (!v.ok()) return v.status();
    axes = *v;
  } else if (ctx.HasAttr(node, "axes")) {
    absl::StatusOr<std::vector<int64_t>> v = ctx.AttrInts(node, "axes", {});
    if (!v.ok()) return v.status();
    axes = *v;
  }
  if (axes && axes->empty() && *noop != 0) return ctx.DefineValue(node, 0, *x);
  if (axes && !axes->empty()) attrs.Set("axes", *axes);
  return ctx.Emit(node, OpKind::kReduce, std::move(attrs), {*x});
}

// ArgMax and ArgMin: the first (or, with select_last_index, the last) position of the extreme
// along `axis`, as int64. Composed from ops every backend has: the extreme reduced with its axis
// kept, compared with every element, and the positions where they are equal reduced to their
// least (or greatest) one; the others stand at a position past the end (or before the start).
absl::Status ArgExtreme(ImportContext& ctx, const NodeProto& node) {
  const bool max = node.op_type() == "ArgMax";
  absl::StatusOr<graph::ValueId> x = ctx.Input(node, 0);
  absl::StatusOr<graph::TensorType> t = ctx.InputType(node, 0);
  absl::StatusOr<int64_t> axis = ctx.AttrInt(node, "axis", 0);
  absl::StatusOr<int64_t> keep = ctx.AttrInt(node, "keepdims", 1);
  absl::StatusOr<int64_t> last = ctx.AttrInt(node, "select_last_index", 0);
  for (const absl::Status& s :
       {x.status(), t.status(), axis.status(), keep.status(), last.status()}) {
    if (!s.ok()) return s;
  }
  const int64_t rank = static_cast<int64_t>(t->shape.size());
  if (*axis < -rank || *axis >= rank) {
    return ctx.Error(node, "axis " + std::to_string(*axis) + " is outside the input's rank " +
                               std::to_string(rank));
  }
  const int64_t a = *axis < 0 ? *axis + rank : *axis;
  const int64_t n = t->shape[a];
  if (n <= 0) return ctx.Error(node, "the reduced axis is empty: no position to return");
  const std::string fn = max ? "max" : "min";
  absl::StatusOr<graph::ValueId> extreme = ctx.EmitInner(
      node, OpKind::kReduce, "/extreme",
      {{"fn", fn}, {"keep_dims", int64_t{1}}, {"axes", std::vector<int64_t>{a}}}, {*x});
  if (!extreme.ok()) return extreme.status();
  absl::StatusOr<graph::ValueId> at_extreme = ctx.EmitInner(
      node, OpKind::kCompare, "/at_extreme", {{"fn", std::string(kEqual)}}, {*x, *extreme});
  if (!at_extreme.ok()) return at_extreme.status();
  // The positions along the axis, shaped to broadcast against the input: [n, 1, ..., 1].
  std::vector<int64_t> position_shape(static_cast<size_t>(rank - a), 1);
  position_shape[0] = n;
  const DLDataType i64{kDLInt, 64, 1};
  absl::StatusOr<runtime::NDArray> positions = runtime::NDArray::Empty(position_shape, i64);
  absl::StatusOr<runtime::NDArray> elsewhere = runtime::NDArray::Empty({}, i64);
  if (!positions.ok()) return positions.status();
  if (!elsewhere.ok()) return elsewhere.status();
  for (int64_t i = 0; i < n; ++i) static_cast<int64_t*>(positions->data())[i] = i;
  *static_cast<int64_t*>(elsewhere->data()) = *last != 0 ? -1 : n;
  graph::Graph& g = ctx.graph();
  const graph::ValueId position =
      g.AddConstant(ImportContext::PartName(node, "/positions"), *std::move(positions));
  const graph::ValueId none =
      g.AddConstant(ImportContext::PartName(node, "/elsewhere"), *std::move(elsewhere));
  absl::StatusOr<graph::ValueId> candidates =
      ctx.EmitInner(node, OpKind::kWhere, "/candidates", {}, {*at_extreme, position, none});
  if (!candidates.ok()) return candidates.status();
  return ctx.Emit(node, OpKind::kReduce,
                  {{"fn", std::string(*last != 0 ? "max" : "min")},
                   {"keep_dims", *keep != 0 ? int64_t{1} : int64_t{0}},
                   {"axes", std::vector<int64_t>{a}}},
                  {*candidates});
}

// CumSum's axis is a constant scalar input (int32 or int64), as ONNX's shape inference needs too.
absl::Status CumSum(ImportContext& ctx, const NodeProto& node) {
  absl::StatusOr<graph::ValueId> x = ctx.Input(node, 0);
  if (!x.ok()) return x.status();
  absl::StatusOr<std::vector<int64_t>> axis = ctx.ConstantInts(node, 1, "axis");
  if (!axis.ok()) return axis.status();
  if (axis->size() != 1) return ctx.Error(node, "axis must be one integer");
  absl::StatusOr<int64_t> exclusive = ctx.AttrInt(node, "exclusive", 0);
  absl::StatusOr<int64_t> reverse = ctx.AttrInt(node, "reverse", 0);
  if (!exclusive.ok()) return exclusive.status();
  if (!reverse.ok()) return reverse.status();
  return ctx.Emit(node, OpKind::kCumSum,
                  {{"axis", axis->front()}, {"exclusive", *exclusive}, {"reverse", *reverse}},
                  {*x});
}

// IsInf: x equal to +inf, -inf, or either (|x| = inf); detecting neither is false everywhere,
// as a comparison with NaN gives.
absl::Status IsInf(ImportContext& ctx, const NodeProto& node) {
  absl::StatusOr<graph::ValueId> x = ctx.Input(node, 0);
  absl::StatusOr<graph::TensorType> t = ctx.InputType(node, 0);
  absl::StatusOr<int64_t> positive = ctx.AttrInt(node, "detect_positive", 1);
  absl::StatusOr<int64_t> negative = ctx.AttrInt(node, "detect_negative", 1);
  for (const absl::Status& s : {x.status(), t.status(), positive.status(), negative.status()}) {
    if (!s.ok()) return s;
  }
  if (t->dtype.code != kDLFloat) return ctx.Error(node, "needs a float input");
  constexpr double kInf = std::numeric_limits<double>::infinity();
  graph::ValueId operand = *x;
  double against = std::numeric_limits<double>::quiet_NaN();
  if (*positive != 0 && *negative != 0) {
    absl::StatusOr<graph::ValueId> magnitude =
        ctx.EmitInner(node, OpKind::kUnary, "/magnitude", {{"fn", std::string("abs")}}, {*x});
    if (!magnitude.ok()) return magnitude.status();
    operand = *magnitude;
    against = kInf;
  } else if (*positive != 0) {
    against = kInf;
  } else if (*negative != 0) {
    against = -kInf;
  }
  absl::StatusOr<graph::ValueId> bound = ctx.AddScalar(node, "/infinity", t->dtype, against);
  if (!bound.ok()) return bound.status();
  return ctx.Emit(node, OpKind::kCompare, {{"fn", std::string(kEqual)}}, {operand, *bound});
}

// IsNaN: x != x, the one value unequal to itself.
absl::Status IsNaN(ImportContext& ctx, const NodeProto& node) {
  absl::StatusOr<graph::ValueId> x = ctx.Input(node, 0);
  if (!x.ok()) return x.status();
  absl::StatusOr<graph::ValueId> same = ctx.EmitInner(node, OpKind::kCompare, "/equals_itself",
                                                      {{"fn", std::string(kEqual)}}, {*x, *x});
  if (!same.ok()) return same.status();
  return ctx.Emit(node, OpKind::kLogicalNot, {}, {*same});
}

// EyeLike: ones on the k-th diagonal of a matrix shaped like the input, in `dtype` (the input's
// when absent); the input's values are not read, so the result is a constant.
absl::Status EyeLike(ImportContext& ctx, const NodeProto& node) {
  absl::StatusOr<graph::TensorType> t = ctx.InputType(node, 0);
  absl::StatusOr<int64_t> k = ctx.AttrInt(node, "k", 0);
  absl::StatusOr<int64_t> dtype_code = ctx.AttrInt(node, "dtype", -1);
  for (const absl::Status& s : {t.status(), k.status(), dtype_code.status()}) {
    if (!s.ok()) return s;
  }
  if (t->rank() != 2) return ctx.Error(node, "needs a matrix, not " + t->ToString());
  DLDataType dtype = t->dtype;
  if (*dtype_code >= 0) {
    absl::StatusOr<DLDataType> d = DataTypeFromOnnx(static_cast<int32_t>(*dtype_code));
    if (!d.ok()) return ctx.Error(node, std::string(d.status().message()));
    dtype = *d;
  }
  const int64_t rows = t->shape[0], cols = t->shape[1];
  absl::StatusOr<runtime::NDArray> eye = runtime::NDArray::Empty({rows, cols}, dtype);
  if (!eye.ok()) return eye.status();
  absl::StatusOr<runtime::NDArray> one = ImportContext::ScalarArray(dtype, 1);
  if (!one.ok()) return ctx.Error(node, std::string(one.status().message()));
  std::memset(eye->data(), 0, eye->NumBytes());
  for (int64_t r = 0; r < rows; ++r) {
    const int64_t c = r + *k;
    if (c < 0 || c >= cols) continue;
    std::memcpy(static_cast<char*>(eye->data()) + (r * cols + c) * one->NumBytes(), one->data(),
                one->NumBytes());
  }
  return ctx.DefineConstant(node.output(0), *std::move(eye));
}

// OneHot: `values`[1] where the index (negative ones counting from `depth`) equals the position
// along the new `axis`, values[0] elsewhere. Indices of any numeric type are compared as int64
// (fractions truncated, as ONNX casts them).
absl::Status OneHot(ImportContext& ctx, const NodeProto& node) {
  absl::StatusOr<graph::ValueId> indices = ctx.Input(node, 0);
  absl::StatusOr<graph::TensorType> it = ctx.InputType(node, 0);
  absl::StatusOr<double> depth_value = ctx.ConstantScalar(node, 1, "depth");
  absl::StatusOr<graph::ValueId> values = ctx.Input(node, 2);
  absl::StatusOr<int64_t> axis = ctx.AttrInt(node, "axis", -1);
  for (const absl::Status& s :
       {indices.status(), it.status(), depth_value.status(), values.status(), axis.status()}) {
    if (!s.ok()) return s;
  }
  const int64_t depth = static_cast<int64_t>(*depth_value);
  if (depth < 1 || depth > graph::kMaxElements) {
    return ctx.Error(node, "depth must be a positive count, not " + std::to_string(depth));
  }
  const int64_t rank = it->rank() + 1;
  if (*axis < -rank || *axis >= rank) {
    return ctx.Error(node, "axis " + std::to_string(*axis) + " is outside the output's rank " +
                               std::to_string(rank));
  }
  const int64_t a = *axis < 0 ? *axis + rank : *axis;
  const DLDataType i64{kDLInt, 64, 1};
  graph::ValueId index = *indices;
  if (!runtime::SameDataType(it->dtype, i64)) {
    absl::StatusOr<graph::ValueId> cast =
        ctx.EmitInner(node, OpKind::kCast, "/index_int64", {{"to", std::string("int64")}}, {index});
    if (!cast.ok()) return cast.status();
    index = *cast;
  }
  absl::StatusOr<graph::ValueId> zero = ctx.AddScalar(node, "/zero", i64, 0);
  absl::StatusOr<graph::ValueId> depth_scalar = ctx.AddScalar(node, "/depth", i64, depth);
  if (!zero.ok()) return zero.status();
  if (!depth_scalar.ok()) return depth_scalar.status();
  absl::StatusOr<graph::ValueId> negative = ctx.EmitInner(
      node, OpKind::kCompare, "/negative", {{"fn", std::string(kLess)}}, {index, *zero});
  absl::StatusOr<graph::ValueId> wrapped =
      ctx.EmitInner(node, OpKind::kAdd, "/wrapped", {}, {index, *depth_scalar});
  if (!negative.ok()) return negative.status();
  if (!wrapped.ok()) return wrapped.status();
  absl::StatusOr<graph::ValueId> normalized =
      ctx.EmitInner(node, OpKind::kWhere, "/normalized", {}, {*negative, *wrapped, index});
  if (!normalized.ok()) return normalized.status();
  absl::StatusOr<graph::ValueId> lifted = ctx.EmitInner(
      node, OpKind::kUnsqueeze, "/at_axis", {{"axes", std::vector<int64_t>{a}}}, {*normalized});
  if (!lifted.ok()) return lifted.status();
  std::vector<int64_t> position_shape(static_cast<size_t>(rank - a), 1);
  position_shape[0] = depth;
  absl::StatusOr<runtime::NDArray> positions = runtime::NDArray::Empty(position_shape, i64);
  if (!positions.ok()) return positions.status();
  for (int64_t i = 0; i < depth; ++i) static_cast<int64_t*>(positions->data())[i] = i;
  const graph::ValueId position =
      ctx.graph().AddConstant(ImportContext::PartName(node, "/positions"), *std::move(positions));
  absl::StatusOr<graph::ValueId> hot = ctx.EmitInner(
      node, OpKind::kCompare, "/hot", {{"fn", std::string(kEqual)}}, {*lifted, position});
  if (!hot.ok()) return hot.status();
  absl::StatusOr<graph::ValueId> off =
      ctx.EmitInner(node, OpKind::kGather, "/off_value", {{"axis", int64_t{0}}}, {*values, *zero});
  absl::StatusOr<graph::ValueId> one = ctx.AddScalar(node, "/one", i64, 1);
  if (!off.ok()) return off.status();
  if (!one.ok()) return one.status();
  absl::StatusOr<graph::ValueId> on =
      ctx.EmitInner(node, OpKind::kGather, "/on_value", {{"axis", int64_t{0}}}, {*values, *one});
  if (!on.ok()) return on.status();
  return ctx.Emit(node, OpKind::kWhere, {}, {*hot, *on, *off});
}

// BitShift of unsigned integers: x * 2^y to the left (wrapping as a shift drops the high bits),
// x / 2^y to the right; 2^y is computed in double, exact for every shift within the type.
absl::Status BitShift(ImportContext& ctx, const NodeProto& node) {
  absl::StatusOr<graph::ValueId> x = ctx.Input(node, 0);
  absl::StatusOr<graph::ValueId> y = ctx.Input(node, 1);
  absl::StatusOr<graph::TensorType> t = ctx.InputType(node, 0);
  absl::StatusOr<std::string> direction = ctx.AttrString(node, "direction", "");
  for (const absl::Status& s : {x.status(), y.status(), t.status(), direction.status()}) {
    if (!s.ok()) return s;
  }
  if (*direction != "LEFT" && *direction != "RIGHT") {
    return ctx.Error(node, "direction must be LEFT or RIGHT, not '" + *direction + "'");
  }
  if (t->dtype.code != kDLUInt) return ctx.Error(node, "shifts unsigned integers only");
  const graph::Attributes as_double{{"to", std::string("float64")}};
  absl::StatusOr<graph::ValueId> yd = ctx.EmitInner(node, OpKind::kCast, "/shift", as_double, {*y});
  absl::StatusOr<graph::ValueId> two = ctx.AddScalar(node, "/two", {kDLFloat, 64, 1}, 2);
  if (!yd.ok()) return yd.status();
  if (!two.ok()) return two.status();
  absl::StatusOr<graph::ValueId> power =
      ctx.EmitInner(node, OpKind::kPow, "/power_of_two", {}, {*two, *yd});
  if (!power.ok()) return power.status();
  absl::StatusOr<graph::ValueId> factor = ctx.EmitInner(
      node, OpKind::kCast, "/factor", {{"to", runtime::DataTypeToString(t->dtype)}}, {*power});
  if (!factor.ok()) return factor.status();
  return ctx.Emit(node, *direction == "LEFT" ? OpKind::kMul : OpKind::kDiv, {}, {*x, *factor});
}

constexpr OnnxConverter kMathConverters[] = {
    {"Abs", &UnaryFn<kAbs>},
    {"Neg", &UnaryFn<kNeg>},
    {"Sign", &UnaryFn<kSign>},
    {"Floor", &UnaryFn<kFloor>},
    {"Ceil", &UnaryFn<kCeil>},
    {"Round", &UnaryFn<kRound>},
    {"Sqrt", &UnaryFn<kSqrt>},
    {"Reciprocal", &UnaryFn<kReciprocal>},
    {"Log", &UnaryFn<kLog>},
    {"Erf", &UnaryFn<kErf>},
    {"Softplus", &UnaryFn<kSoftplus>},
    {"Softsign", &UnaryFn<kSoftsign>},
    {"Mish", &UnaryFn<kMish>},
    {"Elu", &UnaryFn<kElu>},
    {"Selu", &UnaryFn<kSelu>},
    {"Celu", &UnaryFn<kCelu>},
    {"LeakyRelu", &UnaryFn<kLeakyRelu>},
    {"ThresholdedRelu", &UnaryFn<kThresholdedRelu>},
    {"Gelu", &Gelu},
    {"Sin", &UnaryFn<kSin>},
    {"Cos", &UnaryFn<kCos>},
    {"Tan", &UnaryFn<kTan>},
    {"Sinh", &UnaryFn<kSinh>},
    {"Cosh", &UnaryFn<kCosh>},
    {"Asin", &UnaryFn<kAsin>},
    {"Acos", &UnaryFn<kAcos>},
    {"Atan", &UnaryFn<kAtan>},
    {"Asinh", &UnaryFn<kAsinh>},
    {"Acosh", &UnaryFn<kAcosh>},
    {"Atanh", &UnaryFn<kAtanh>},
    {"Shrink", &Shrink},
    {"Pow", &Pow},
    {"Mod", &Mod, 10},
    {"Trilu", &Trilu, 14},
    {"PRelu", &PRelu},
    {"Equal", &NamedBinary<OpKind::kCompare, kEqual>},
    {"Less", &NamedBinary<OpKind::kCompare, kLess>},
    {"LessOrEqual", &NamedBinary<OpKind::kCompare, kLessEqual>},
    {"Greater", &NamedBinary<OpKind::kCompare, kGreater>},
    {"GreaterOrEqual", &NamedBinary<OpKind::kCompare, kGreaterEqual>},
    {"And", &NamedBinary<OpKind::kLogical, kAnd>},
    {"Or", &NamedBinary<OpKind::kLogical, kOr>},
    {"Xor", &NamedBinary<OpKind::kLogical, kXor>},
    {"Not", &Not},
    {"IsInf", &IsInf, 10},
    {"BitShift", &BitShift, 11},
    {"IsNaN", &IsNaN, 9},
    {"EyeLike", &EyeLike, 9},
    {"OneHot", &OneHot, 11},
    {"Where", &Where},
    {"Max", &Variadic},
    {"Min", &Variadic},
    {"Sum", &Variadic},
    {"Mean", &Variadic},
    {"ArgMax", &ArgExtreme},
    {"ArgMin", &ArgExtreme},
    {"CumSum", &CumSum, 11},
    {"ReduceSum", &Reduce},
    {"ReduceMean", &Reduce},
    {"ReduceMax", &Reduce},
    {"ReduceMin", &Reduce},
    {"ReduceProd", &Reduce},
    {"ReduceL1", &Reduce},
    {"ReduceL2", &Reduce},
    {"ReduceSumSquare", &Reduce},
    {"ReduceLogSum", &Reduce},
    {"ReduceLogSumExp", &Reduce},
};

}  // namespace

std::span<const OnnxConverter> MathConverters() { return kMathConverters; }

}  // namespace tunefarm::frontend::onnx
