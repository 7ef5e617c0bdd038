#include "compiler/topi/unary_math.h"

#include <cmath>
#include <numbers>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/ir/op.h"

namespace tunefarm::topi {
namespace {

using ir::Expr;

struct UnaryFnInfo {
  UnaryFn fn;
  std::string_view name;
  bool integers;
};

constexpr UnaryFnInfo kUnaryFns[] = {
    {UnaryFn::kAbs, "abs", true},
    {UnaryFn::kNeg, "neg", true},
    {UnaryFn::kSign, "sign", true},
    {UnaryFn::kFloor, "floor", false},
    {UnaryFn::kCeil, "ceil", false},
    {UnaryFn::kRound, "round", false},
    {UnaryFn::kSqrt, "sqrt", false},
    {UnaryFn::kReciprocal, "reciprocal", false},
    {UnaryFn::kLog, "log", false},
    {UnaryFn::kErf, "erf", false},
    {UnaryFn::kSoftplus, "softplus", false},
    {UnaryFn::kSoftsign, "softsign", false},
    {UnaryFn::kElu, "elu", false},
    {UnaryFn::kSelu, "selu", false},
    {UnaryFn::kCelu, "celu", false},
    {UnaryFn::kLeakyRelu, "leaky_relu", false},
    {UnaryFn::kThresholdedRelu, "thresholded_relu", false},
    {UnaryFn::kMish, "mish", false},
    {UnaryFn::kGelu, "gelu", false},
    {UnaryFn::kGeluTanh, "gelu_tanh", false},
    {UnaryFn::kShrink, "shrink", false},
    {UnaryFn::kSin, "sin", false},
    {UnaryFn::kCos, "cos", false},
    {UnaryFn::kTan, "tan", false},
    {UnaryFn::kSinh, "sinh", false},
    {UnaryFn::kCosh, "cosh", false},
    {UnaryFn::kAsin, "asin", false},
    {UnaryFn::kAcos, "acos", false},
    {UnaryFn::kAtan, "atan", false},
    {UnaryFn::kAsinh, "asinh", false},
    {UnaryFn::kAcosh, "acosh", false},
    {UnaryFn::kAtanh, "atanh", false},
};

const UnaryFnInfo& UnaryInfoOf(UnaryFn fn) { return kUnaryFns[static_cast<int>(fn)]; }

Expr TypedConst(const Expr& like, double v) { return ir::MakeConst(like.dtype(), v); }

Expr ExpMinusOne(const Expr& v) { return ir::Call(ir::Intrinsic::kExp, {v}) - TypedConst(v, 1.0); }

// log(1 + e^x) without overflow: max(x, 0) + log(1 + e^-|x|).
Expr SoftplusOf(const Expr& v) {
  Expr tail = ir::Call(ir::Intrinsic::kExp, {-ir::Call(ir::Intrinsic::kFabs, {v})});
  return ir::Max(v, TypedConst(v, 0)) + ir::Call(ir::Intrinsic::kLog, {TypedConst(v, 1.0) + tail});
}

Expr ApplyUnary(UnaryFn fn, const Expr& v, const UnaryParams& p) {
  const Expr zero = ir::MakeZero(v.dtype());
  switch (fn) {
    case UnaryFn::kAbs:
      return v.dtype().is_float() ? ir::Call(ir::Intrinsic::kFabs, {v})
                                  : ir::Select(v < zero, zero - v, v);
    case UnaryFn::kNeg:
      return zero - v;
    case UnaryFn::kSign:
      return ir::Select(v > zero, TypedConst(v, 1), ir::Select(v < zero, TypedConst(v, -1), zero));
    case UnaryFn::kFloor:
      return ir::Call(ir::Intrinsic::kFloor, {v});
    case UnaryFn::kCeil:
      return ir::Call(ir::Intrinsic::kCeil, {v});
    case UnaryFn::kRound:
      return ir::Call(ir::Intrinsic::kRound, {v});
    case UnaryFn::kSqrt:
      return ir::Call(ir::Intrinsic::kSqrt, {v});
    case UnaryFn::kReciprocal:
      return ir::Div(TypedConst(v, 1.0), v);
    case UnaryFn::kLog:
      return ir::Call(ir::Intrinsic::kLog, {v});
    case UnaryFn::kErf:
      return ir::Call(ir::Intrinsic::kErf, {v});
    case UnaryFn::kSoftplus:
      return SoftplusOf(v);
    case UnaryFn::kSoftsign:
      return ir::Div(v, TypedConst(v, 1.0) + ir::Call(ir::Intrinsic::kFabs, {v}));
    case UnaryFn::kElu:
      return ir::Select(v < zero, TypedConst(v, p.alpha) * ExpMinusOne(v), v);
    case UnaryFn::kSelu:
      return TypedConst(v, p.gamma) *
             ir::Select(v <= zero, TypedConst(v, p.alpha) * ExpMinusOne(v), v);
    case UnaryFn::kCelu:
      return ir::Max(v, zero) + ir::Min(zero, TypedConst(v, p.alpha) *
                                                  ExpMinusOne(ir::Div(v, TypedConst(v, p.alpha))));
    case UnaryFn::kLeakyRelu:
      return ir::Select(v < zero, TypedConst(v, p.alpha) * v, v);
    case UnaryFn::kThresholdedRelu:
      return ir::Select(v > TypedConst(v, p.alpha), v, zero);
    case UnaryFn::kMish:
      return v * ir::Call(ir::Intrinsic::kTanh, {SoftplusOf(v)});
    case UnaryFn::kGelu:
      return TypedConst(v, 0.5) * v *
             (TypedConst(v, 1.0) +
              ir::Call(ir::Intrinsic::kErf, {v * TypedConst(v, std::numbers::sqrt2 / 2)}));
    case UnaryFn::kShrink:
      return ir::Select(v < TypedConst(v, -p.alpha), v + TypedConst(v, p.gamma),
                        ir::Select(v > TypedConst(v, p.alpha), v - TypedConst(v, p.gamma), zero));
    case UnaryFn::kSin:
      return ir::Call(ir::Intrinsic::kSin, {v});
    case UnaryFn::kCos:
      return ir::Call(ir::Intrinsic::kCos, {v});
    case UnaryFn::kTan:
      return ir::Call(ir::Intrinsic::kTan, {v});
    case UnaryFn::kSinh:
      return ir::Call(ir::Intrinsic::kSinh, {v});
    case UnaryFn::kCosh:
      return ir::Call(ir::Intrinsic::kCosh, {v});
    case UnaryFn::kAsin:
      return ir::Call(ir::Intrinsic::kAsin, {v});
    case UnaryFn::kAcos:
      return ir::Call(ir::Intrinsic::kAcos, {v});
    case UnaryFn::kAtan:
      return ir::Call(ir::Intrinsic::kAtan, {v});
    case UnaryFn::kAsinh:
      return ir::Call(ir::Intrinsic::kAsinh, {v});
    case UnaryFn::kAcosh:
      return ir::Call(ir::Intrinsic::kAcosh, {v});
    case UnaryFn::kAtanh:
      return ir::Call(ir::Intrinsic::kAtanh, {v});
    case UnaryFn::kGeluTanh: {
      Expr inner = TypedConst(v, std::sqrt(2 / std::numbers::pi)) *
                   (v + TypedConst(v, 0.044715) * v * v * v);
      return TypedConst(v, 0.5) * v *
             (TypedConst(v, 1.0) + ir::Call(ir::Intrinsic::kTanh, {inner}));
    }
  }
  return v;
}

}  // namespace

std::string_view UnaryFnName(UnaryFn fn) { return UnaryInfoOf(fn).name; }

std::optional<UnaryFn> UnaryFnFromName(std::string_view name) {
  for (const UnaryFnInfo& info : kUnaryFns) {
    if (info.name == name) return info.fn;
  }
  return std::nullopt;
}

bool UnaryFnTakesIntegers(UnaryFn fn) { return UnaryInfoOf(fn).integers; }

absl::StatusOr<te::Tensor> UnaryMathCompute(const te::Tensor& x, UnaryFn fn,
                                            const UnaryParams& params) {
  const std::string name(UnaryFnName(fn));
  if (!x.defined()) return absl::InvalidArgumentError(absl::StrCat(name, ": undefined input"));
  if (!x.dtype().is_float() && !UnaryFnTakesIntegers(fn)) {
    return absl::InvalidArgumentError(
        absl::StrCat(name, ": needs a float tensor, ", x.name(), " is ", x.dtype().ToString()));
  }
  if (fn == UnaryFn::kCelu && params.alpha == 0) {
    return absl::InvalidArgumentError("celu: alpha must not be 0");
  }
  return te::compute(
      x.shape(),
      [&](const std::vector<ir::Var>& i) {
        return ApplyUnary(fn, x(std::vector<Expr>(i.begin(), i.end())), params);
      },
      name);
}

}  // namespace tunefarm::topi
