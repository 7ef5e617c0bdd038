#include "compiler/interp/arith_code.h"

#include <cmath>
#include <utility>

#include "absl/strings/str_cat.h"
#include "compiler/ir/printer.h"

namespace tunefarm::interp {
namespace {

using K = ScalarKind;

// Each op computes one lane. `shift` wraps integer results to the operand width; `div_by_zero`
// is set (and the result unspecified) when an integer division has a zero divisor.
inline uint64_t U(Lane l) { return static_cast<uint64_t>(l.i); }

struct AddOp {
  template <K k>
  static Lane Apply(Lane a, Lane b, int shift, bool*) {
    if constexpr (IsFloatKind(k)) return MakeFloatLane<k>(a.f + b.f);
    return MakeIntLane<k>(U(a) + U(b), shift);
  }
};

struct SubOp {
  template <K k>
  static Lane Apply(Lane a, Lane b, int shift, bool*) {
    if constexpr (IsFloatKind(k)) return MakeFloatLane<k>(a.f - b.f);
    return MakeIntLane<k>(U(a) - U(b), shift);
  }
};

// The low bits of a product do not depend on signedness, so unsigned 64-bit math wraps right.
struct MulOp {
  template <K k>
  static Lane Apply(Lane a, Lane b, int shift, bool*) {
    if constexpr (IsFloatKind(k)) return MakeFloatLane<k>(a.f * b.f);
    return MakeIntLane<k>(U(a) * U(b), shift);
  }
};

// Truncating division; INT_MIN / -1 wraps instead of trapping.
struct DivOp {
  template <K k>
  static Lane Apply(Lane a, Lane b, int shift, bool* div_by_zero) {
    if constexpr (IsFloatKind(k)) {
      return MakeFloatLane<k>(a.f / b.f);
    } else {
      if (b.i == 0) {
        *div_by_zero = true;
        return IntLane(0);
      }
      if constexpr (k == K::kUInt) {
        return IntLane(static_cast<int64_t>(U(a) / U(b)));
      }
      if (b.i == -1) return MakeIntLane<k>(0 - U(a), shift);
      return IntLane(a.i / b.i);
    }
  }
};

struct ModOp {
  template <K k>
  static Lane Apply(Lane a, Lane b, int, bool* div_by_zero) {
    if constexpr (IsFloatKind(k)) {
      return MakeFloatLane<k>(std::fmod(a.f, b.f));
    } else {
      if (b.i == 0) {
        *div_by_zero = true;
        return IntLane(0);
      }
      if constexpr (k == K::kUInt) {
        return IntLane(static_cast<int64_t>(U(a) % U(b)));
      }
      if (b.i == -1) return IntLane(0);
      return IntLane(a.i % b.i);
    }
  }
};

struct FloorDivOp {
  template <K k>
  static Lane Apply(Lane a, Lane b, int shift, bool* div_by_zero) {
    if constexpr (IsFloatKind(k)) {
      return MakeFloatLane<k>(std::floor(MakeFloatLane<k>(a.f / b.f).f));
    } else if constexpr (k == K::kUInt) {
      return DivOp::Apply<k>(a, b, shift, div_by_zero);
    } else {
      if (b.i == 0) {
        *div_by_zero = true;
        return IntLane(0);
      }
      if (b.i == -1) return MakeIntLane<k>(0 - U(a), shift);
      const int64_t q = a.i / b.i;
      return IntLane((a.i % b.i != 0 && ((a.i < 0) != (b.i < 0))) ? q - 1 : q);
    }
  }
};

// The result has the sign of the divisor.
struct FloorModOp {
  template <K k>
  static Lane Apply(Lane a, Lane b, int shift, bool* div_by_zero) {
    if constexpr (IsFloatKind(k)) {
      const double q = std::floor(MakeFloatLane<k>(a.f / b.f).f);
      return MakeFloatLane<k>(a.f - MakeFloatLane<k>(q * b.f).f);
    } else if constexpr (k == K::kUInt) {
      return ModOp::Apply<k>(a, b, shift, div_by_zero);
    } else {
      if (b.i == 0) {
        *div_by_zero = true;
        return IntLane(0);
      }
      if (b.i == -1) return IntLane(0);
      const int64_t r = a.i % b.i;
      return IntLane((r != 0 && ((r < 0) != (b.i < 0))) ? r + b.i : r);
    }
  }
};

// a < b under the kind's ordering; any comparison with NaN is false (uint64 lanes hold bit
// patterns, so compare them unsigned).
template <K k>
bool Less(Lane a, Lane b) {
  if constexpr (IsFloatKind(k)) return a.f < b.f;
  if constexpr (k == K::kUInt) return static_cast<uint64_t>(a.i) < static_cast<uint64_t>(b.i);
  return a.i < b.i;
}
template <K k>
bool Equal(Lane a, Lane b) {
  if constexpr (IsFloatKind(k)) return a.f == b.f;
  return a.i == b.i;
}

#define TF_COMPARE_OP(Name, expr)                   \
  struct Name {                                     \
    template <K k>                                  \
    static Lane Apply(Lane a, Lane b, int, bool*) { \
      return expr;                                  \
    }                                               \
  };
TF_COMPARE_OP(MinOp, Less<k>(b, a) ? b : a)
TF_COMPARE_OP(MaxOp, Less<k>(a, b) ? b : a)
TF_COMPARE_OP(EQOp, IntLane(Equal<k>(a, b)))
TF_COMPARE_OP(NEOp, IntLane(!Equal<k>(a, b)))
TF_COMPARE_OP(LTOp, IntLane(Less<k>(a, b)))
TF_COMPARE_OP(LEOp, IntLane(Less<k>(a, b) || Equal<k>(a, b)))
TF_COMPARE_OP(GTOp, IntLane(Less<k>(b, a)))
TF_COMPARE_OP(GEOp, IntLane(Less<k>(b, a) || Equal<k>(a, b)))
TF_COMPARE_OP(AndOp, IntLane(a.i != 0 && b.i != 0))
TF_COMPARE_OP(OrOp, IntLane(a.i != 0 || b.i != 0))
#undef TF_COMPARE_OP

template <typename Op, K k>
class BinaryCode final : public ExprCode {
 public:
  BinaryCode(int lanes, int shift, const ExprCode* a, const ExprCode* b, ir::Expr source)
      : ExprCode(lanes), shift_(shift), a_(a), b_(b), source_(std::move(source)) {}

  Lane Scalar(Frame& f) const override {
    const Lane x = a_.Get(f);
    const Lane y = b_.Get(f);
    bool div_by_zero = false;
    const Lane r = Op::template Apply<k>(x, y, shift_, &div_by_zero);
    if (div_by_zero) ReportDivByZero(f);
    return r;
  }

  void Vector(Frame& f, Lane* out) const override {
    Value x(lanes()), y(lanes());
    a_.code()->Vector(f, x.data());
    b_.code()->Vector(f, y.data());
    const Lane* mask = f.mask_lanes == lanes() ? f.lane_mask : nullptr;
    bool div_by_zero = false;
    for (int l = 0; l < lanes(); ++l) {
      out[l] = (mask && mask[l].i == 0) ? IntLane(0)
                                        : Op::template Apply<k>(x[l], y[l], shift_, &div_by_zero);
    }
    if (div_by_zero) ReportDivByZero(f);
  }

 private:
  void ReportDivByZero(Frame& f) const {
    f.Fail(absl::InvalidArgumentError(absl::StrCat("division by zero in ", ir::ToString(source_))));
  }

  const int shift_;
  const Operand a_;
  const Operand b_;
  const ir::Expr source_;
};

template <typename Op>
const ExprCode* MakeForKind(CodeArena& arena, K kind, int lanes, int shift, const ExprCode* a,
                            const ExprCode* b, ir::Expr source) {
  switch (kind) {
    case K::kInt:
      return arena.New<BinaryCode<Op, K::kInt>>(lanes, shift, a, b, std::move(source));
    case K::kUInt:
      return arena.New<BinaryCode<Op, K::kUInt>>(lanes, shift, a, b, std::move(source));
    case K::kFloat32:
      return arena.New<BinaryCode<Op, K::kFloat32>>(lanes, shift, a, b, std::move(source));
    case K::kFloat64:
      return arena.New<BinaryCode<Op, K::kFloat64>>(lanes, shift, a, b, std::move(source));
  }
  TF_UNREACHABLE();
}

class NotCode final : public ExprCode {
 public:
  explicit NotCode(const ExprCode* a) : ExprCode(a->lanes()), a_(a) {}
  Lane Scalar(Frame& f) const override { return IntLane(a_->Scalar(f).i == 0); }
  void Vector(Frame& f, Lane* out) const override {
    a_->Vector(f, out);
    for (int l = 0; l < lanes(); ++l) out[l] = IntLane(out[l].i == 0);
  }

 private:
  const ExprCode* a_;
};

// Truncates toward zero into 64 bits, saturating at the limits of int64 (for int targets) or
// uint64 (for uint targets), with NaN as 0 (see MakeCastCode).
template <K to>
uint64_t FloatToBits(double v) {
  constexpr double kTwo63 = 9223372036854775808.0, kTwo64 = 18446744073709551616.0;
  if (std::isnan(v)) return 0;
  const double t = std::trunc(v);
  if (t < -kTwo63) return uint64_t{1} << 63;
  if constexpr (to == K::kInt) {
    if (t >= kTwo63) return uint64_t{0x7FFFFFFFFFFFFFFF};
  } else {
    if (t >= kTwo64) return ~uint64_t{0};
    if (t >= kTwo63) return static_cast<uint64_t>(t);
  }
  return static_cast<uint64_t>(static_cast<int64_t>(t));
}

template <K from, K to>
Lane CastLane(Lane v, int shift, bool to_bool) {
  if (to_bool) return IntLane(IsFloatKind(from) ? v.f != 0 : v.i != 0);
  if constexpr (IsFloatKind(to) && IsFloatKind(from)) {
    return MakeFloatLane<to>(v.f);
  } else if constexpr (IsFloatKind(to)) {
    // Convert in one rounding step: int64 -> double -> float could round twice.
    using F = std::conditional_t<to == K::kFloat32, float, double>;
    return FloatLane(from == K::kInt ? static_cast<F>(v.i)
                                     : static_cast<F>(static_cast<uint64_t>(v.i)));
  } else if constexpr (IsFloatKind(from)) {
    return MakeIntLane<to>(FloatToBits<to>(v.f), shift);
  } else {
    return MakeIntLane<to>(static_cast<uint64_t>(v.i), shift);
  }
}

template <K from, K to>
class CastCode final : public ExprCode {
 public:
  CastCode(int lanes, int shift, bool to_bool, const ExprCode* a)
      : ExprCode(lanes), shift_(shift), to_bool_(to_bool), a_(a) {}
  Lane Scalar(Frame& f) const override {
    return CastLane<from, to>(a_->Scalar(f), shift_, to_bool_);
  }
  void Vector(Frame& f, Lane* out) const override {
    a_->Vector(f, out);
    for (int l = 0; l < lanes(); ++l) out[l] = CastLane<from, to>(out[l], shift_, to_bool_);
  }

 private:
  const int shift_;
  const bool to_bool_;
  const ExprCode* a_;
};

template <K from>
const ExprCode* MakeCastFrom(CodeArena& arena, ir::DataType to, const ExprCode* a) {
  const int lanes = to.lanes(), shift = ShiftOf(to);
  const bool to_bool = to.is_bool();
  switch (KindOf(to)) {
    case K::kInt:
      return arena.New<CastCode<from, K::kInt>>(lanes, shift, to_bool, a);
    case K::kUInt:
      return arena.New<CastCode<from, K::kUInt>>(lanes, shift, to_bool, a);
    case K::kFloat32:
      return arena.New<CastCode<from, K::kFloat32>>(lanes, shift, to_bool, a);
    case K::kFloat64:
      return arena.New<CastCode<from, K::kFloat64>>(lanes, shift, to_bool, a);
  }
  TF_UNREACHABLE();
}

}  // namespace

const ExprCode* MakeBinaryCode(CodeArena& arena, ir::ExprKind kind, ir::DataType operand_type,
                               const ExprCode* a, const ExprCode* b, ir::Expr source) {
  const K k = KindOf(operand_type);
  const int lanes = operand_type.lanes(), shift = ShiftOf(operand_type);
  switch (kind) {
#define TF_BINARY_CASE(Name)  \
  case ir::ExprKind::k##Name: \
    return MakeForKind<Name##Op>(arena, k, lanes, shift, a, b, std::move(source));
    TF_IR_BINARY_NODES(TF_BINARY_CASE)
#undef TF_BINARY_CASE
    default:
      TF_UNREACHABLE() << "not a binary node kind: " << static_cast<int>(kind);
  }
}

const ExprCode* MakeNotCode(CodeArena& arena, const ExprCode* a) { return arena.New<NotCode>(a); }

const ExprCode* MakeCastCode(CodeArena& arena, ir::DataType from, ir::DataType to,
                             const ExprCode* a) {
  switch (KindOf(from)) {
    case K::kInt:
      return MakeCastFrom<K::kInt>(arena, to, a);
    case K::kUInt:
      return MakeCastFrom<K::kUInt>(arena, to, a);
    case K::kFloat32:
      return MakeCastFrom<K::kFloat32>(arena, to, a);
    case K::kFloat64:
      return MakeCastFrom<K::kFloat64>(arena, to, a);
  }
  TF_UNREACHABLE();
}

}  // namespace tunefarm::interp
