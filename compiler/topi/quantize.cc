#include "compiler/topi/quantize.h"

#include "absl/strings/str_cat.h"
#include "compiler/ir/op.h"

namespace tunefarm::topi {
namespace {

using ir::Expr;

// The parameter for the element at `i`: its only element, or the one of i[axis].
absl::StatusOr<std::function<Expr(const std::vector<ir::Var>&)>> Parameter(const te::Tensor& x,
                                                                           const te::Tensor& p,
                                                                           int axis, const char* op,
                                                                           const char* what) {
  if (p.ndim() > 1) {
    return absl::InvalidArgumentError(
        absl::StrCat(op, ": ", what, " must have rank 0 or 1, not ", p.ndim()));
  }
  const std::optional<int64_t> n = p.ndim() == 0 ? 1 : ir::AsConstInt(p.shape()[0]);
  if (n == 1) {  // per tensor: the axis does not matter
    if (p.ndim() == 0) return [p](const std::vector<ir::Var>&) { return p({}); };
    return [p](const std::vector<ir::Var>&) { return p({Expr(0)}); };
  }
  if (axis < 0 || axis >= static_cast<int>(x.ndim())) {
    return absl::InvalidArgumentError(absl::StrCat(op, ": axis ", axis, " of rank ", x.ndim()));
  }
  const std::optional<int64_t> channels = ir::AsConstInt(x.shape()[axis]);
  if (!n || !channels || *n != *channels) {
    return absl::InvalidArgumentError(absl::StrCat(
        op, ": ", what, " has ", n ? std::to_string(*n) : "?", " elements; it needs 1 or one per ",
        "index of axis ", axis, " (", channels ? std::to_string(*channels) : "?", ")"));
  }
  return [p, axis](const std::vector<ir::Var>& i) { return p({i[axis]}); };
}

bool IsInt8(ir::DataType t) { return t.is_scalar() && t.is_integral() && t.bits() == 8; }

}  // namespace

absl::StatusOr<te::Tensor> QuantizeCompute(const te::Tensor& x, const te::Tensor& scale,
                                           const te::Tensor& zero_point, int axis) {
  const ir::DataType f32 = ir::DataType::Float(32), out = zero_point.dtype();
  if (x.dtype() != f32 || scale.dtype() != f32) {
    return absl::InvalidArgumentError(absl::StrCat("quantize: x and scale must be float32, not ",
                                                   x.dtype().ToString(), " and ",
                                                   scale.dtype().ToString()));
  }
  if (!IsInt8(out)) {
    return absl::InvalidArgumentError(
        absl::StrCat("quantize: the zero point must be int8 or uint8, not ", out.ToString()));
  }
  auto s = Parameter(x, scale, axis, "quantize", "scale");
  if (!s.ok()) return s.status();
  auto z = Parameter(x, zero_point, axis, "quantize", "zero_point");
  if (!z.ok()) return z.status();
  const Expr lo = ir::MakeConst(f32, out.is_uint() ? 0 : -128);
  const Expr hi = ir::MakeConst(f32, out.is_uint() ? 255 : 127);
  return te::compute(
      x.shape(),
      [&](const std::vector<ir::Var>& i) {
        Expr v = ir::Div(x(std::vector<Expr>(i.begin(), i.end())), (*s)(i));
        v = ir::Call(ir::Intrinsic::kRound, {v}) + ir::Cast(f32, (*z)(i));
        return ir::Cast(out, ir::Min(ir::Max(v, lo), hi));
      },
      "quantize");
}

absl::StatusOr<te::Tensor> DequantizeCompute(const te::Tensor& x, const te::Tensor& scale,
                                             const te::Tensor& zero_point, int axis) {
  const ir::DataType f32 = ir::DataType::Float(32);
  const bool int32 = x.dtype() == ir::DataType::Int(32);
  if (!IsInt8(x.dtype()) && !int32) {
    return absl::InvalidArgumentError(
        absl::StrCat("dequantize: x must be int8, uint8 or int32, not ", x.dtype().ToString()));
  }
  if (scale.dtype() != f32 || zero_point.dtype() != x.dtype()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "dequantize: scale must be float32 and the zero point of x's dtype ", x.dtype().ToString(),
        "; got ", scale.dtype().ToString(), " and ", zero_point.dtype().ToString()));
  }
  auto s = Parameter(x, scale, axis, "dequantize", "scale");
  if (!s.ok()) return s.status();
  auto z = Parameter(x, zero_point, axis, "dequantize", "zero_point");
  if (!z.ok()) return z.status();
  return te::compute(
      x.shape(),
      [&](const std::vector<ir::Var>& i) {
        // The difference in int32 first: exact, where float32 would round an int32 input.
        Expr q = ir::Cast(ir::DataType::Int(32), x(std::vector<Expr>(i.begin(), i.end())));
        Expr d = q - ir::Cast(ir::DataType::Int(32), (*z)(i));
        return ir::Cast(f32, d) * (*s)(i);
      },
      "dequantize");
}

}  // namespace tunefarm::topi
