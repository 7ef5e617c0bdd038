// Builtins that declare a computation, one per te API function: var, placeholder, compute,
// reduce_axis, thread_axis, the reducers, if_then_else, all/any, const and the math intrinsics.
#include "absl/strings/str_cat.h"
#include "compiler/ir/op.h"
#include "compiler/script/evaluator.h"

namespace tunefarm::script {
namespace {

std::string NameOr(const Arg* arg, std::string fallback) {
  return arg ? arg->value.as<std::string>() : std::move(fallback);
}

// Whether an integer type (int8..int64, uint8..uint64) holds `value`.
bool FitsIn(ir::DataType t, int64_t value) {
  if (t.is_uint()) return value >= 0 && (t.bits() >= 63 || value < (int64_t{1} << t.bits()));
  if (t.bits() >= 64) return true;
  const int64_t limit = int64_t{1} << (t.bits() - 1);
  return value >= -limit && value < limit;
}

absl::StatusOr<Value> Var(CallContext& ctx) {
  auto args = BindArgs(ctx, {{"name", false}, {"dtype", false}});
  if (!args.ok()) return args.status();
  const auto& a = *args;
  if (a[0] && !a[0]->value.is(Value::Kind::kString))
    return ctx.TypeError(*a[0], "name", "a string");
  ir::DataType dtype = ir::DataType::Int(32);
  if (a[1]) {
    absl::StatusOr<ir::DataType> t = ArgDType(ctx, *a[1], "dtype");
    if (!t.ok()) return t.status();
    dtype = *t;
  }
  ir::Var v = te::var(NameOr(a[0], "tindex"), dtype);
  ctx.evaluator.AddSymbolicVar(v);
  // A bound variable is its value from here on, so shapes (and knob extents) are constants.
  if (std::optional<int64_t> bound = ctx.evaluator.BoundValue(v.name())) {
    if (!dtype.is_integral() || dtype.is_bool()) {
      return ctx.Error(absl::StrCat("var: ", v.name(), " is bound to ", *bound, " but has type ",
                                    dtype.ToString(), ", not an integer type"));
    }
    if (!FitsIn(dtype, *bound)) {
      return ctx.Error(absl::StrCat("var: ", v.name(), " is bound to ", *bound,
                                    ", which does not fit its type ", dtype.ToString()));
    }
    return Value::FromExpr(ir::IntImm(dtype, *bound));
  }
  return Value::FromExpr(v);
}

absl::StatusOr<Value> Placeholder(CallContext& ctx) {
  auto args = BindArgs(ctx, {{"shape"}, {"dtype", false}, {"name", false}});
  if (!args.ok()) return args.status();
  const auto& a = *args;
  absl::StatusOr<std::vector<ir::Expr>> shape = ArgShape(ctx, *a[0], "shape");
  if (!shape.ok()) return shape.status();
  if (shape->empty()) return ctx.Error(a[0]->pos, "placeholder: shape must not be empty");
  ir::DataType dtype = ir::DataType::Float(32);
  if (a[1]) {
    absl::StatusOr<ir::DataType> t = ArgDType(ctx, *a[1], "dtype");
    if (!t.ok()) return t.status();
    dtype = *t;
  }
  if (a[2] && !a[2]->value.is(Value::Kind::kString))
    return ctx.TypeError(*a[2], "name", "a string");
  return Value::FromTensor(te::placeholder(*std::move(shape), dtype, NameOr(a[2], "placeholder")));
}

absl::StatusOr<Value> Compute(CallContext& ctx) {
  auto args = BindArgs(ctx, {{"shape"}, {"fcompute"}, {"name", false}});
  if (!args.ok()) return args.status();
  const auto& a = *args;
  absl::StatusOr<std::vector<ir::Expr>> shape = ArgShape(ctx, *a[0], "shape");
  if (!shape.ok()) return shape.status();
  if (shape->empty()) return ctx.Error(a[0]->pos, "compute: shape must not be empty");
  if (!a[1]->value.is(Value::Kind::kClosure)) return ctx.TypeError(*a[1], "fcompute", "a lambda");
  const Closure& fn = *a[1]->value.as<std::shared_ptr<const Closure>>();
  if (fn.params.size() != shape->size()) {
    return ctx.Error(a[1]->pos,
                     absl::StrCat("compute: the lambda takes ", fn.params.size(),
                                  " arguments but the shape has ", shape->size(), " dimensions"));
  }
  if (a[2] && !a[2]->value.is(Value::Kind::kString))
    return ctx.TypeError(*a[2], "name", "a string");
  // te::compute calls back with the axis variables; an error inside the body is kept here and
  // reported after it returns (the callback cannot return a Status).
  absl::Status body_status;
  Pos body_pos = fn.body->pos;
  auto index_fn = [&](const std::vector<ir::Var>& vars) -> ir::Expr {
    std::vector<Arg> call_args;
    for (const ir::Var& v : vars) call_args.push_back(Arg{Value::FromExpr(v), ctx.pos, ""});
    absl::StatusOr<Value> body = ctx.evaluator.Call(a[1]->value, std::move(call_args), ctx.pos);
    if (!body.ok()) {
      body_status = body.status();
      return ir::Expr();
    }
    std::optional<ir::Expr> e = AsExpr(*body);
    if (!e) {
      body_status = ctx.Error(body_pos, absl::StrCat("compute: the lambda must return an "
                                                     "expression, got ",
                                                     TypeName(*body)));
      return ir::Expr();
    }
    return *e;
  };
  absl::StatusOr<te::Tensor> t = te::compute(*shape, index_fn, NameOr(a[2], "compute"), fn.params);
  if (!body_status.ok()) return body_status;
  if (!t.ok()) return ctx.Error(std::string(t.status().message()));
  return Value::FromTensor(*std::move(t));
}

absl::StatusOr<Value> ReduceAxis(CallContext& ctx) {
  auto args = BindArgs(ctx, {{"dom"}, {"name", false}});
  if (!args.ok()) return args.status();
  const auto& a = *args;
  absl::StatusOr<ir::Range> dom = ArgRange(ctx, *a[0], "dom");
  if (!dom.ok()) return dom.status();
  if (a[1] && !a[1]->value.is(Value::Kind::kString))
    return ctx.TypeError(*a[1], "name", "a string");
  return Value::FromIterVar(te::reduce_axis(*std::move(dom), NameOr(a[1], "rv")));
}

bool IsThreadTag(absl::string_view tag) {
  for (absl::string_view known : {"blockIdx.x", "blockIdx.y", "blockIdx.z", "threadIdx.x",
                                  "threadIdx.y", "threadIdx.z", "vthread"}) {
    if (tag == known) return true;
  }
  return false;
}

absl::StatusOr<Value> ThreadAxis(CallContext& ctx) {
  auto args = BindArgs(ctx, {{"dom", false}, {"tag", false}, {"name", false}});
  if (!args.ok()) return args.status();
  auto a = *args;
  // As in TVM, thread_axis("threadIdx.x") passes the tag first.
  if (a[0] && a[0]->value.is(Value::Kind::kString)) {
    if (a[1]) return ctx.Error(a[1]->pos, "thread_axis() got multiple values for argument 'tag'");
    std::swap(a[0], a[1]);
  }
  ir::Range dom;
  if (a[0]) {
    absl::StatusOr<ir::Range> r = ArgRange(ctx, *a[0], "dom");
    if (!r.ok()) return r.status();
    dom = *r;
  }
  if (!a[1]) return ctx.Error("thread_axis() missing required argument 'tag'");
  absl::StatusOr<std::string> tag = ArgString(ctx, *a[1], "tag");
  if (!tag.ok()) return tag.status();
  if (!IsThreadTag(*tag)) {
    return ctx.Error(a[1]->pos, absl::StrCat("thread_axis: unknown tag \"", *tag,
                                             "\" (expected blockIdx.x/y/z, threadIdx.x/y/z "
                                             "or vthread)"));
  }
  if (a[2] && !a[2]->value.is(Value::Kind::kString))
    return ctx.TypeError(*a[2], "name", "a string");
  return Value::FromIterVar(te::thread_axis(dom, *tag, NameOr(a[2], "")));
}

using ReduceFn = ir::Expr (*)(ir::Expr, std::vector<ir::IterVar>, ir::Expr);
using CombineFn = ir::Expr (*)(ir::Expr, ir::Expr);

ir::Expr Plus(ir::Expr a, ir::Expr b) { return std::move(a) + std::move(b); }

// sum/max/min(expr, axis=..., where=...); with two expressions and no axis, as in TVM, the
// reducer's combination of the two (max(a, b)).
template <ReduceFn reduce, CombineFn combine>
absl::StatusOr<Value> Reduction(CallContext& ctx) {
  auto args = BindArgs(ctx, {{"expr"}, {"axis", false}, {"where", false}});
  if (!args.ok()) return args.status();
  const auto& a = *args;
  absl::StatusOr<ir::Expr> source = ArgExpr(ctx, *a[0], "expr");
  if (!source.ok()) return source.status();
  if (!a[1]) return ctx.Error(absl::StrCat(ctx.name, "() missing required argument 'axis'"));
  const Value& axis_value = a[1]->value;
  if (!a[2] && !axis_value.is(Value::Kind::kIterVar) && !axis_value.is(Value::Kind::kList)) {
    absl::StatusOr<ir::Expr> other = ArgExpr(ctx, *a[1], "axis");
    if (!other.ok()) return ctx.TypeError(*a[1], "axis", "an axis or a list of axes");
    return Value::FromExpr(combine(*source, *other));
  }
  absl::StatusOr<std::vector<ir::IterVar>> axes = ArgIterVars(ctx, *a[1], "axis");
  if (!axes.ok()) return axes.status();
  if (axes->empty()) return ctx.Error(a[1]->pos, absl::StrCat(ctx.name, ": axis is empty"));
  for (const ir::IterVar& iv : *axes) {
    if (iv->iter_type != ir::IterVarType::kCommReduce) {
      return ctx.Error(a[1]->pos, absl::StrCat(ctx.name, ": axis ", iv->var.name(),
                                               " is not a reduction axis (make it with "
                                               "reduce_axis)"));
    }
  }
  ir::Expr where;
  if (a[2]) {
    absl::StatusOr<ir::Expr> cond = ArgCondition(ctx, *a[2], "where");
    if (!cond.ok()) return cond.status();
    where = *cond;
  }
  return Value::FromExpr(reduce(*source, *std::move(axes), where));
}

absl::StatusOr<Value> IfThenElse(CallContext& ctx) {
  auto args = BindArgs(ctx, {{"cond"}, {"t"}, {"f"}});
  if (!args.ok()) return args.status();
  const auto& a = *args;
  absl::StatusOr<ir::Expr> cond = ArgCondition(ctx, *a[0], "cond");
  if (!cond.ok()) return cond.status();
  absl::StatusOr<ir::Expr> t = ArgExpr(ctx, *a[1], "t");
  if (!t.ok()) return t.status();
  absl::StatusOr<ir::Expr> f = ArgExpr(ctx, *a[2], "f");
  if (!f.ok()) return f.status();
  return Value::FromExpr(ir::IfThenElse(*cond, *t, *f));
}

// all(c1, c2, ...) and any(...): conjunction and disjunction of conditions.
template <bool kAll>
absl::StatusOr<Value> Logical(CallContext& ctx) {
  if (absl::Status st = RequirePositional(ctx, 1); !st.ok()) return st;
  ir::Expr result;
  for (const Arg& arg : ctx.args) {
    absl::StatusOr<ir::Expr> c = ArgCondition(ctx, arg, "each argument");
    if (!c.ok()) return c.status();
    result = !result.defined() ? *c : kAll ? result && *c : result || *c;
  }
  return Value::FromExpr(result);
}

absl::StatusOr<Value> Const(CallContext& ctx) {
  auto args = BindArgs(ctx, {{"value"}, {"dtype", false}});
  if (!args.ok()) return args.status();
  const auto& a = *args;
  const Value& v = a[0]->value;
  if (!v.is(Value::Kind::kInt) && !v.is(Value::Kind::kFloat) && !v.is(Value::Kind::kBool)) {
    return ctx.TypeError(*a[0], "value", "a number");
  }
  ir::DataType dtype = v.is(Value::Kind::kFloat)  ? ir::DataType::Float(32)
                       : v.is(Value::Kind::kBool) ? ir::DataType::Bool()
                                                  : ir::DataType::Int(32);
  if (a[1]) {
    absl::StatusOr<ir::DataType> t = ArgDType(ctx, *a[1], "dtype");
    if (!t.ok()) return t.status();
    dtype = *t;
  }
  double x = v.is(Value::Kind::kFloat)  ? v.as<double>()
             : v.is(Value::Kind::kBool) ? (v.as<bool>() ? 1.0 : 0.0)
                                        : static_cast<double>(v.as<int64_t>());
  return Value::FromExpr(ir::MakeConst(dtype, x));
}

template <ir::Intrinsic op>
absl::StatusOr<Value> MathUnary(CallContext& ctx) {
  auto args = BindArgs(ctx, {{"x"}});
  if (!args.ok()) return args.status();
  absl::StatusOr<ir::Expr> x = ArgExpr(ctx, *(*args)[0], "x");
  if (!x.ok()) return x.status();
  return Value::FromExpr(ir::Call(op, {*x}));
}

// pow(x, y).
template <CombineFn combine>
absl::StatusOr<Value> MathBinary(CallContext& ctx) {
  auto args = BindArgs(ctx, {{"x"}, {"y"}});
  if (!args.ok()) return args.status();
  absl::StatusOr<ir::Expr> x = ArgExpr(ctx, *(*args)[0], "x");
  if (!x.ok()) return x.status();
  absl::StatusOr<ir::Expr> y = ArgExpr(ctx, *(*args)[1], "y");
  if (!y.ok()) return y.status();
  return Value::FromExpr(combine(*x, *y));
}

ir::Expr Pow(ir::Expr a, ir::Expr b) { return ir::Call(ir::Intrinsic::kPow, {a, b}); }

// x.astype(dtype): a conversion, as TVM's expressions have it (int8 products are summed in int32).
absl::StatusOr<Value> AsType(CallContext& ctx) {
  auto args = BindArgs(ctx, {{"dtype"}});
  if (!args.ok()) return args.status();
  absl::StatusOr<ir::DataType> t = ArgDType(ctx, *(*args)[0], "dtype");
  if (!t.ok()) return t.status();
  const ir::Expr& x = ctx.self.as<ir::Expr>();
  return Value::FromExpr(ir::Cast(t->with_lanes(x.dtype().lanes()), x));
}

constexpr NativeEntry kExprMethods[] = {{"astype", AsType}};

constexpr NativeEntry kTeBuiltins[] = {
    {"var", Var},
    {"placeholder", Placeholder},
    {"compute", Compute},
    {"reduce_axis", ReduceAxis},
    {"thread_axis", ThreadAxis},
    {"sum", Reduction<te::sum, Plus>},
    {"max", Reduction<te::max, ir::Max>},
    {"min", Reduction<te::min, ir::Min>},
    {"if_then_else", IfThenElse},
    {"all", Logical<true>},
    {"any", Logical<false>},
    {"const", Const},
    {"exp", MathUnary<ir::Intrinsic::kExp>},
    {"log", MathUnary<ir::Intrinsic::kLog>},
    {"sqrt", MathUnary<ir::Intrinsic::kSqrt>},
    {"tanh", MathUnary<ir::Intrinsic::kTanh>},
    {"sigmoid", MathUnary<ir::Intrinsic::kSigmoid>},
    {"fabs", MathUnary<ir::Intrinsic::kFabs>},
    {"floor", MathUnary<ir::Intrinsic::kFloor>},
    {"ceil", MathUnary<ir::Intrinsic::kCeil>},
    {"erf", MathUnary<ir::Intrinsic::kErf>},
    {"round", MathUnary<ir::Intrinsic::kRound>},
    {"sin", MathUnary<ir::Intrinsic::kSin>},
    {"cos", MathUnary<ir::Intrinsic::kCos>},
    {"tan", MathUnary<ir::Intrinsic::kTan>},
    {"sinh", MathUnary<ir::Intrinsic::kSinh>},
    {"cosh", MathUnary<ir::Intrinsic::kCosh>},
    {"asin", MathUnary<ir::Intrinsic::kAsin>},
    {"acos", MathUnary<ir::Intrinsic::kAcos>},
    {"atan", MathUnary<ir::Intrinsic::kAtan>},
    {"asinh", MathUnary<ir::Intrinsic::kAsinh>},
    {"acosh", MathUnary<ir::Intrinsic::kAcosh>},
    {"atanh", MathUnary<ir::Intrinsic::kAtanh>},
    {"pow", MathBinary<Pow>},
};

}  // namespace

std::span<const NativeEntry> TeBuiltins() { return kTeBuiltins; }
std::span<const NativeEntry> ExprMethods() { return kExprMethods; }

}  // namespace tunefarm::script
