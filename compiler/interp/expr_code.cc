#include "compiler/interp/expr_code.h"

#include <cmath>

namespace tunefarm::interp {
namespace {

class ConstCode final : public ExprCode {
 public:
  ConstCode(Lane value, int lanes) : ExprCode(lanes), value_(value) {}
  Lane Scalar(Frame&) const override { return value_; }
  void Vector(Frame&, Lane* out) const override {
    for (int l = 0; l < lanes(); ++l) out[l] = value_;
  }
  bool IsConst(Lane* value) const override {
    *value = value_;
    return true;
  }

 private:
  const Lane value_;
};

class VarCode final : public ExprCode {
 public:
  VarCode(int slot, int lanes) : ExprCode(lanes), slot_(slot) {}
  Lane Scalar(Frame& f) const override { return f.slots[slot_]; }
  void Vector(Frame& f, Lane* out) const override {
    for (int l = 0; l < lanes(); ++l) out[l] = f.slots[slot_ + l];
  }
  bool IsSlot(int* slot) const override {
    *slot = slot_;
    return true;
  }

 private:
  const int slot_;
};

template <ScalarKind k>
class RampCode final : public ExprCode {
 public:
  RampCode(int lanes, int shift, const ExprCode* base, const ExprCode* stride)
      : ExprCode(lanes), shift_(shift), base_(base), stride_(stride) {}
  Lane Scalar(Frame&) const override {
    TF_UNREACHABLE() << "Ramp is never scalar";
    return IntLane(0);
  }
  void Vector(Frame& f, Lane* out) const override {
    const Lane base = base_->Scalar(f), stride = stride_->Scalar(f);
    for (int l = 0; l < lanes(); ++l) {
      if constexpr (IsFloatKind(k)) {
        out[l] = MakeFloatLane<k>(base.f + MakeFloatLane<k>(l * stride.f).f);
      } else {
        const auto step = static_cast<uint64_t>(l) * static_cast<uint64_t>(stride.i);
        out[l] = MakeIntLane<k>(static_cast<uint64_t>(base.i) + step, shift_);
      }
    }
  }

 private:
  const int shift_;
  const ExprCode* base_;
  const ExprCode* stride_;
};

class BroadcastCode final : public ExprCode {
 public:
  BroadcastCode(const ExprCode* value, int lanes) : ExprCode(lanes), value_(value) {}
  Lane Scalar(Frame&) const override {
    TF_UNREACHABLE() << "Broadcast is never scalar";
    return IntLane(0);
  }
  void Vector(Frame& f, Lane* out) const override {
    const Lane v = value_->Scalar(f);
    for (int l = 0; l < lanes(); ++l) out[l] = v;
  }

 private:
  const ExprCode* value_;
};

class SelectCode final : public ExprCode {
 public:
  SelectCode(const ExprCode* c, const ExprCode* t, const ExprCode* e)
      : ExprCode(t->lanes()), c_(c), t_(t), e_(e) {}
  Lane Scalar(Frame& f) const override {
    const Lane c = c_->Scalar(f);
    const Lane t = t_->Scalar(f);
    const Lane e = e_->Scalar(f);
    return c.i != 0 ? t : e;
  }
  void Vector(Frame& f, Lane* out) const override {
    Value c(c_->lanes()), e(lanes());
    c_->Vector(f, c.data());
    t_->Vector(f, out);
    e_->Vector(f, e.data());
    for (int l = 0; l < lanes(); ++l) {
      if (c[c_->lanes() == 1 ? 0 : l].i == 0) out[l] = e[l];
    }
  }

 private:
  const ExprCode* c_;
  const ExprCode* t_;
  const ExprCode* e_;
};

// Saves and restores the slots, so a variable bound again inside its own scope reads right.
class LetCode final : public ExprCode {
 public:
  LetCode(int slot, const ExprCode* value, const ExprCode* body)
      : ExprCode(body->lanes()), slot_(slot), value_(value), body_(body) {}
  Lane Scalar(Frame& f) const override {
    if (value_->lanes() == 1) {
      const Lane saved = f.slots[slot_];
      f.slots[slot_] = value_->Scalar(f);
      const Lane r = body_->Scalar(f);
      f.slots[slot_] = saved;
      return r;
    }
    Lane r;
    WithValue(f, [&] { r = body_->Scalar(f); });
    return r;
  }
  void Vector(Frame& f, Lane* out) const override {
    WithValue(f, [&] { body_->Vector(f, out); });
  }

 private:
  template <typename Fn>
  void WithValue(Frame& f, Fn body) const {
    const int n = value_->lanes();
    Value v(n), saved(n);
    value_->Vector(f, v.data());
    for (int l = 0; l < n; ++l) {
      saved[l] = f.slots[slot_ + l];
      f.slots[slot_ + l] = v[l];
    }
    body();
    for (int l = 0; l < n; ++l) f.slots[slot_ + l] = saved[l];
  }

  const int slot_;
  const ExprCode* value_;
  const ExprCode* body_;
};

double ApplyMath(ir::Intrinsic op, double a, double b) {
  switch (op) {
    case ir::Intrinsic::kExp:
      return std::exp(a);
    case ir::Intrinsic::kLog:
      return std::log(a);
    case ir::Intrinsic::kSqrt:
      return std::sqrt(a);
    case ir::Intrinsic::kTanh:
      return std::tanh(a);
    case ir::Intrinsic::kSigmoid:
      return 1.0 / (1.0 + std::exp(-a));
    case ir::Intrinsic::kFabs:
      return std::fabs(a);
    case ir::Intrinsic::kPow:
      return std::pow(a, b);
    case ir::Intrinsic::kFloor:
      return std::floor(a);
    case ir::Intrinsic::kCeil:
      return std::ceil(a);
    case ir::Intrinsic::kErf:
      return std::erf(a);
    case ir::Intrinsic::kRound:
      return std::nearbyint(a);
    case ir::Intrinsic::kSin:
      return std::sin(a);
    case ir::Intrinsic::kCos:
      return std::cos(a);
    case ir::Intrinsic::kTan:
      return std::tan(a);
    case ir::Intrinsic::kSinh:
      return std::sinh(a);
    case ir::Intrinsic::kCosh:
      return std::cosh(a);
    case ir::Intrinsic::kAsin:
      return std::asin(a);
    case ir::Intrinsic::kAcos:
      return std::acos(a);
    case ir::Intrinsic::kAtan:
      return std::atan(a);
    case ir::Intrinsic::kAsinh:
      return std::asinh(a);
    case ir::Intrinsic::kAcosh:
      return std::acosh(a);
    case ir::Intrinsic::kAtanh:
      return std::atanh(a);
    default:
      TF_UNREACHABLE() << "not a math intrinsic: " << ir::IntrinsicName(op);
  }
}

// Math is computed in double and rounded once to the type: within an ulp of the C library's
// float functions, which is what a tolerance in a comparison must allow for anyway.
class MathCode final : public ExprCode {
 public:
  MathCode(ir::Intrinsic op, ir::DataType type, const ExprCode* a, const ExprCode* b)
      : ExprCode(type.lanes()), op_(op), f32_(type.bits() == 32), a_(a), b_(b) {}
  Lane Scalar(Frame& f) const override {
    const double a = a_->Scalar(f).f;
    const double b = b_ ? b_->Scalar(f).f : 0.0;
    return Round(ApplyMath(op_, a, b));
  }
  void Vector(Frame& f, Lane* out) const override {
    Value b(lanes());
    a_->Vector(f, out);
    if (b_) b_->Vector(f, b.data());
    for (int l = 0; l < lanes(); ++l) out[l] = Round(ApplyMath(op_, out[l].f, b_ ? b[l].f : 0.0));
  }

 private:
  Lane Round(double v) const {
    return f32_ ? MakeFloatLane<ScalarKind::kFloat32>(v) : FloatLane(v);
  }

  const ir::Intrinsic op_;
  const bool f32_;
  const ExprCode* a_;
  const ExprCode* b_;  // null for unary functions
};

// Lanes hold the 8-bit operands already sign- or zero-extended by their loads, so the products
// are exact; only the int32 sum wraps, as the instructions' does.
class Dot4AddCode final : public ExprCode {
 public:
  Dot4AddCode(const ExprCode* acc, const ExprCode* a, const ExprCode* b)
      : ExprCode(acc->lanes()), acc_(acc), a_(a), b_(b) {}
  Lane Scalar(Frame& f) const override {
    Lane out;
    Vector(f, &out);
    return out;
  }
  void Vector(Frame& f, Lane* out) const override {
    Value a(a_->lanes()), b(b_->lanes());
    acc_->Vector(f, out);
    a_->Vector(f, a.data());
    b_->Vector(f, b.data());
    const bool shared = a_->lanes() == 4;
    for (int l = 0; l < lanes(); ++l) {
      uint64_t sum = static_cast<uint64_t>(out[l].i);
      for (int k = 0; k < 4; ++k) {
        sum += static_cast<uint64_t>(a[shared ? k : 4 * l + k].i * b[4 * l + k].i);
      }
      out[l] = IntLane(WrapSigned(sum, ShiftOf(ir::DataType::Int(32))));
    }
  }

 private:
  const ExprCode* acc_;
  const ExprCode* a_;
  const ExprCode* b_;
};

class IfThenElseCode final : public ExprCode {
 public:
  IfThenElseCode(const ExprCode* c, const ExprCode* t, const ExprCode* e)
      : ExprCode(t->lanes()), c_(c), t_(t), e_(e) {}
  Lane Scalar(Frame& f) const override {
    return c_->Scalar(f).i != 0 ? t_->Scalar(f) : e_->Scalar(f);
  }
  void Vector(Frame& f, Lane* out) const override {
    if (c_->lanes() == 1) {
      (c_->Scalar(f).i != 0 ? t_ : e_)->Vector(f, out);
      return;
    }
    Value c(lanes());
    c_->Vector(f, c.data());
    // Lanes an enclosing if_then_else switched off choose neither operand.
    const Lane* outer = f.mask_lanes == lanes() ? f.lane_mask : nullptr;
    Value take_t(lanes()), take_e(lanes());
    bool any_t = false, any_e = false;
    for (int l = 0; l < lanes(); ++l) {
      const bool active = outer == nullptr || outer[l].i != 0;
      take_t[l] = IntLane(active && c[l].i != 0);
      take_e[l] = IntLane(active && c[l].i == 0);
      any_t = any_t || take_t[l].i != 0;
      any_e = any_e || take_e[l].i != 0;
    }
    Value e(lanes());
    if (any_t) Masked(f, take_t, t_, out);
    if (any_e) Masked(f, take_e, e_, e.data());
    for (int l = 0; l < lanes(); ++l) {
      if (take_t[l].i == 0) out[l] = take_e[l].i != 0 ? e[l] : IntLane(0);
    }
  }

 private:
  void Masked(Frame& f, const Value& mask, const ExprCode* code, Lane* out) const {
    const Lane* saved_mask = f.lane_mask;
    const int saved_lanes = f.mask_lanes;
    f.lane_mask = mask.data();
    f.mask_lanes = lanes();
    code->Vector(f, out);
    f.lane_mask = saved_mask;
    f.mask_lanes = saved_lanes;
  }

  const ExprCode* c_;
  const ExprCode* t_;
  const ExprCode* e_;
};

}  // namespace

const ExprCode* MakeConstCode(CodeArena& arena, Lane value, int lanes) {
  return arena.New<ConstCode>(value, lanes);
}

const ExprCode* MakeVarCode(CodeArena& arena, int slot, int lanes) {
  return arena.New<VarCode>(slot, lanes);
}

const ExprCode* MakeRampCode(CodeArena& arena, ir::DataType type, const ExprCode* base,
                             const ExprCode* stride) {
  const int lanes = type.lanes(), shift = ShiftOf(type);
  switch (KindOf(type)) {
    case ScalarKind::kInt:
      return arena.New<RampCode<ScalarKind::kInt>>(lanes, shift, base, stride);
    case ScalarKind::kUInt:
      return arena.New<RampCode<ScalarKind::kUInt>>(lanes, shift, base, stride);
    case ScalarKind::kFloat32:
      return arena.New<RampCode<ScalarKind::kFloat32>>(lanes, shift, base, stride);
    case ScalarKind::kFloat64:
      return arena.New<RampCode<ScalarKind::kFloat64>>(lanes, shift, base, stride);
  }
  TF_UNREACHABLE();
}

const ExprCode* MakeBroadcastCode(CodeArena& arena, const ExprCode* value, int lanes) {
  return arena.New<BroadcastCode>(value, lanes);
}

const ExprCode* MakeSelectCode(CodeArena& arena, const ExprCode* condition,
                               const ExprCode* true_value, const ExprCode* false_value) {
  return arena.New<SelectCode>(condition, true_value, false_value);
}

const ExprCode* MakeLetCode(CodeArena& arena, int slot, const ExprCode* value,
                            const ExprCode* body) {
  return arena.New<LetCode>(slot, value, body);
}

const ExprCode* MakeMathCode(CodeArena& arena, ir::Intrinsic op, ir::DataType type,
                             const ExprCode* a, const ExprCode* b) {
  return arena.New<MathCode>(op, type, a, b);
}

const ExprCode* MakeDot4AddCode(CodeArena& arena, const ExprCode* acc, const ExprCode* a,
                                const ExprCode* b) {
  return arena.New<Dot4AddCode>(acc, a, b);
}

const ExprCode* MakeIfThenElseCode(CodeArena& arena, const ExprCode* condition,
                                   const ExprCode* true_value, const ExprCode* false_value) {
  return arena.New<IfThenElseCode>(condition, true_value, false_value);
}

}  // namespace tunefarm::interp
