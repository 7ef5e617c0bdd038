// Overflow-aware int64 arithmetic shared by constant folding and the bound analyses: values
// wrapped to an IR type's width, floor division, and saturating operations in which INT64_MIN
// and INT64_MAX stand for -inf and +inf.
#pragma once

#include <cstdint>
#include <limits>

#include "compiler/ir/type.h"

namespace tunefarm::arith {

inline constexpr int64_t kNegInf = std::numeric_limits<int64_t>::min();
inline constexpr int64_t kPosInf = std::numeric_limits<int64_t>::max();

// The value an IntImm of type `t` holds for the integer `v` taken modulo 2^bits: sign-extended
// for int, zero-extended for uint (uint64 keeps its bits), 0/1 for bool.
inline int64_t WrapToType(ir::DataType t, int64_t v) {
  int bits = t.bits();
  if (t.is_bool()) return v & 1;
  if (bits >= 64) return v;
  uint64_t mask = (uint64_t{1} << bits) - 1;
  uint64_t low = static_cast<uint64_t>(v) & mask;
  if (t.is_uint()) return static_cast<int64_t>(low);
  uint64_t sign = uint64_t{1} << (bits - 1);
  return static_cast<int64_t>((low ^ sign) - sign);
}

// The signed reading of a wrapped value: for uint types a value at or above 2^(bits-1) reads as
// negative. Linear forms work modulo 2^bits, where this is the natural coefficient to print.
inline int64_t SignedView(ir::DataType t, int64_t v) {
  if (t.bits() >= 64 || t.is_bool()) return v;
  uint64_t sign = uint64_t{1} << (t.bits() - 1);
  uint64_t low = static_cast<uint64_t>(v) & ((sign << 1) - 1);
  return static_cast<int64_t>((low ^ sign) - sign);
}

// Wrapping ring operations on int64 (no undefined behaviour on overflow).
inline int64_t WrapAdd(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
}
inline int64_t WrapSub(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) - static_cast<uint64_t>(b));
}
inline int64_t WrapMul(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b));
}

// Floor division and modulo of int64; b != 0 and not (a == INT64_MIN && b == -1).
inline int64_t FloorDivInt(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}
inline int64_t FloorModInt(int64_t a, int64_t b) {
  int64_t r = a % b;
  return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;
}

// Greatest common divisor of |a| and |b| (0 when both are 0); |INT64_MIN| saturates.
inline int64_t Gcd(int64_t a, int64_t b) {
  uint64_t x = a < 0 ? 0 - static_cast<uint64_t>(a) : static_cast<uint64_t>(a);
  uint64_t y = b < 0 ? 0 - static_cast<uint64_t>(b) : static_cast<uint64_t>(b);
  while (y != 0) {
    uint64_t r = x % y;
    x = y;
    y = r;
  }
  return x > static_cast<uint64_t>(kPosInf) ? kPosInf : static_cast<int64_t>(x);
}

// Arithmetic on bounds where kNegInf/kPosInf are infinities; finite overflow saturates.
inline int64_t InfAdd(int64_t a, int64_t b) {
  // -inf + +inf does not arise for interval bounds (min with min, max with max); -inf wins.
  if (a == kNegInf || b == kNegInf) return kNegInf;
  if (a == kPosInf || b == kPosInf) return kPosInf;
  int64_t r;
  if (__builtin_add_overflow(a, b, &r)) return a > 0 ? kPosInf : kNegInf;
  return r;
}
inline int64_t InfNeg(int64_t a) {
  if (a == kNegInf) return kPosInf;
  if (a == kPosInf) return kNegInf;
  return -a;
}
inline int64_t InfMul(int64_t a, int64_t b) {
  if (a == 0 || b == 0) return 0;
  bool neg = (a < 0) != (b < 0);
  if (a == kNegInf || a == kPosInf || b == kNegInf || b == kPosInf) return neg ? kNegInf : kPosInf;
  int64_t r;
  if (__builtin_mul_overflow(a, b, &r)) return neg ? kNegInf : kPosInf;
  return r;
}
// Floor division of a bound by a nonzero finite constant; infinities keep (or flip) their sign.
inline int64_t InfFloorDiv(int64_t a, int64_t b) {
  if (a == kNegInf || a == kPosInf) return (a == kPosInf) == (b > 0) ? kPosInf : kNegInf;
  if (b == -1) return InfNeg(a);
  return FloorDivInt(a, b);
}
// Truncating division of a bound by a nonzero finite constant.
inline int64_t InfTruncDiv(int64_t a, int64_t b) {
  if (a == kNegInf || a == kPosInf) return (a == kPosInf) == (b > 0) ? kPosInf : kNegInf;
  if (b == -1) return InfNeg(a);
  return a / b;
}

// The value range of an integer type, with uint64's top clipped to kPosInf.
inline int64_t TypeMinValue(ir::DataType t) {
  if (!t.is_int()) return 0;
  return t.bits() >= 64 ? kNegInf : -(int64_t{1} << (t.bits() - 1));
}
inline int64_t TypeMaxValue(ir::DataType t) {
  if (t.is_bool()) return 1;
  if (t.bits() >= 64) return kPosInf;
  return t.is_int() ? (int64_t{1} << (t.bits() - 1)) - 1 : (int64_t{1} << t.bits()) - 1;
}

}  // namespace tunefarm::arith
