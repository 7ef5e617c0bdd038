#include "compiler/ir/simplify/const_fold.h"

#include <cmath>

#include "compiler/ir/arith/int_arith.h"

namespace tunefarm::arith {
namespace {

using ir::DataType;
using ir::Expr;
using ir::ExprKind;

bool IsUInt64(DataType t) { return t.is_uint() && t.bits() == 64; }

// Orders two immediates of type t: negative, zero or positive like a three-way compare.
int CompareInt(DataType t, int64_t a, int64_t b) {
  if (IsUInt64(t)) {
    auto x = static_cast<uint64_t>(a), y = static_cast<uint64_t>(b);
    return x < y ? -1 : (x > y ? 1 : 0);
  }
  return a < b ? -1 : (a > b ? 1 : 0);
}

Expr FoldIntDivision(ExprKind kind, DataType t, int64_t a, int64_t b) {
  if (b == 0) return Expr();
  bool is_div = kind == ExprKind::kDiv || kind == ExprKind::kFloorDiv;
  if (IsUInt64(t)) {
    auto x = static_cast<uint64_t>(a), y = static_cast<uint64_t>(b);
    return ir::IntImm(t, static_cast<int64_t>(is_div ? x / y : x % y));
  }
  // Division by -1 is negation; doing it by hand avoids INT64_MIN / -1.
  if (b == -1) return ir::IntImm(t, is_div ? WrapToType(t, WrapSub(0, a)) : 0);
  int64_t r = 0;
  switch (kind) {
    case ExprKind::kDiv:
      r = a / b;
      break;
    case ExprKind::kMod:
      r = a % b;
      break;
    case ExprKind::kFloorDiv:
      r = FloorDivInt(a, b);
      break;
    default:
      r = FloorModInt(a, b);
      break;
  }
  return ir::IntImm(t, WrapToType(t, r));
}

Expr FoldCompare(ExprKind kind, int order) {
  switch (kind) {
    case ExprKind::kEQ:
      return ir::BoolImm(order == 0);
    case ExprKind::kNE:
      return ir::BoolImm(order != 0);
    case ExprKind::kLT:
      return ir::BoolImm(order < 0);
    case ExprKind::kLE:
      return ir::BoolImm(order <= 0);
    case ExprKind::kGT:
      return ir::BoolImm(order > 0);
    case ExprKind::kGE:
      return ir::BoolImm(order >= 0);
    default:
      return Expr();
  }
}

Expr FoldInt(ExprKind kind, DataType t, int64_t a, int64_t b) {
  bool arith_ok = !t.is_bool();
  switch (kind) {
    case ExprKind::kAdd:
      return arith_ok ? ir::IntImm(t, WrapToType(t, WrapAdd(a, b))) : Expr();
    case ExprKind::kSub:
      return arith_ok ? ir::IntImm(t, WrapToType(t, WrapSub(a, b))) : Expr();
    case ExprKind::kMul:
      return arith_ok ? ir::IntImm(t, WrapToType(t, WrapMul(a, b))) : Expr();
    case ExprKind::kDiv:
    case ExprKind::kMod:
    case ExprKind::kFloorDiv:
    case ExprKind::kFloorMod:
      return arith_ok ? FoldIntDivision(kind, t, a, b) : Expr();
    case ExprKind::kMin:
      return ir::IntImm(t, CompareInt(t, a, b) <= 0 ? a : b);
    case ExprKind::kMax:
      return ir::IntImm(t, CompareInt(t, a, b) >= 0 ? a : b);
    case ExprKind::kAnd:
      return ir::BoolImm(a != 0 && b != 0);
    case ExprKind::kOr:
      return ir::BoolImm(a != 0 || b != 0);
    default:
      return FoldCompare(kind, CompareInt(t, a, b));
  }
}

// Computes in T (float or double) so float32 results round exactly as float32 code would.
template <typename T>
Expr FoldFloat(ExprKind kind, DataType t, T a, T b) {
  auto imm = [&](T v) { return ir::FloatImm(t, static_cast<double>(v)); };
  bool nan = std::isnan(a) || std::isnan(b);
  switch (kind) {
    case ExprKind::kAdd:
      return imm(a + b);
    case ExprKind::kSub:
      return imm(a - b);
    case ExprKind::kMul:
      return imm(a * b);
    case ExprKind::kDiv:
      return b == 0 ? Expr() : imm(a / b);
    case ExprKind::kMod:
      return b == 0 ? Expr() : imm(std::fmod(a, b));
    case ExprKind::kFloorDiv:
      return b == 0 ? Expr() : imm(std::floor(a / b));
    case ExprKind::kFloorMod:
      return b == 0 ? Expr() : imm(a - std::floor(a / b) * b);
    case ExprKind::kMin:
      return nan ? Expr() : imm(b < a ? b : a);
    case ExprKind::kMax:
      return nan ? Expr() : imm(a < b ? b : a);
    case ExprKind::kEQ:
      return ir::BoolImm(a == b);
    case ExprKind::kNE:
      return ir::BoolImm(a != b);
    case ExprKind::kLT:
      return ir::BoolImm(a < b);
    case ExprKind::kLE:
      return ir::BoolImm(a <= b);
    case ExprKind::kGT:
      return ir::BoolImm(a > b);
    case ExprKind::kGE:
      return ir::BoolImm(a >= b);
    default:
      return Expr();
  }
}

}  // namespace

bool IsImmediate(const Expr& e) {
  return e.As<ir::IntImmNode>() != nullptr || e.As<ir::FloatImmNode>() != nullptr;
}

Expr FoldBinary(ExprKind kind, const Expr& a, const Expr& b) {
  if (!a.defined() || !b.defined() || !(a.dtype() == b.dtype())) return Expr();
  DataType t = a.dtype();
  const auto* ia = a.As<ir::IntImmNode>();
  const auto* ib = b.As<ir::IntImmNode>();
  if (ia && ib) return FoldInt(kind, t, ia->value, ib->value);
  const auto* fa = a.As<ir::FloatImmNode>();
  const auto* fb = b.As<ir::FloatImmNode>();
  if (!fa || !fb) return Expr();
  if (t.bits() == 32) {
    return FoldFloat<float>(kind, t, static_cast<float>(fa->value), static_cast<float>(fb->value));
  }
  if (t.bits() == 64) return FoldFloat<double>(kind, t, fa->value, fb->value);
  return Expr();
}

Expr FoldNot(const Expr& a) {
  const auto* imm = a.As<ir::IntImmNode>();
  if (!imm || !a.dtype().is_bool()) return Expr();
  return ir::BoolImm(imm->value == 0);
}

Expr FoldCast(DataType t, const Expr& value) {
  if (!t.is_scalar() || !value.defined()) return Expr();
  DataType s = value.dtype();
  if (const auto* imm = value.As<ir::IntImmNode>()) {
    if (t.is_integral())
      return ir::IntImm(t, t.is_bool() ? imm->value != 0 : WrapToType(t, imm->value));
    if (!t.is_float() || (t.bits() != 32 && t.bits() != 64)) return Expr();
    double v = IsUInt64(s) ? static_cast<double>(static_cast<uint64_t>(imm->value))
                           : static_cast<double>(imm->value);
    if (t.bits() == 32) {
      v = IsUInt64(s) ? static_cast<float>(static_cast<uint64_t>(imm->value))
                      : static_cast<float>(imm->value);
    }
    return ir::FloatImm(t, v);
  }
  const auto* f = value.As<ir::FloatImmNode>();
  if (!f) return Expr();
  if (t.is_float()) return (t.bits() == 32 || t.bits() == 64) ? ir::FloatImm(t, f->value) : Expr();
  if (t.is_bool()) return ir::BoolImm(f->value != 0);
  if (!t.is_integral() || std::isnan(f->value)) return Expr();
  double v = std::trunc(f->value);
  // Out-of-range float-to-int conversion is undefined; leave it to run time.
  double lo = static_cast<double>(TypeMinValue(t));
  double hi = t.bits() >= 64 ? 9223372036854775807.0 : static_cast<double>(TypeMaxValue(t));
  if (v < lo || v >= hi + (t.bits() >= 64 ? 0.0 : 1.0)) return Expr();
  return ir::IntImm(t, static_cast<int64_t>(v));
}

}  // namespace tunefarm::arith
