#include "compiler/ir/op.h"

#include <cmath>
#include <limits>

#include "compiler/ir/check.h"

namespace tunefarm::ir {
namespace {

Expr BroadcastTo(Expr e, int lanes) {
  if (e.dtype().lanes() == lanes) return e;
  TF_CHECK(e.dtype().is_scalar()) << "cannot broadcast " << e.dtype().ToString() << " to " << lanes
                                  << " lanes";
  return BroadcastNode::Make(std::move(e), lanes);
}

// Folds a binary node over two integer constants; nullopt when it must not fold.
std::optional<int64_t> FoldInt(ExprKind kind, int64_t a, int64_t b) {
  switch (kind) {
    case ExprKind::kAdd:
      return a + b;
    case ExprKind::kSub:
      return a - b;
    case ExprKind::kMul:
      return a * b;
    case ExprKind::kMin:
      return std::min(a, b);
    case ExprKind::kMax:
      return std::max(a, b);
    case ExprKind::kDiv:
      return b == 0 ? std::nullopt : std::optional(a / b);
    case ExprKind::kMod:
      return b == 0 ? std::nullopt : std::optional(a % b);
    case ExprKind::kFloorDiv: {
      if (b == 0) return std::nullopt;
      int64_t q = a / b;
      return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
    }
    case ExprKind::kFloorMod: {
      if (b == 0) return std::nullopt;
      int64_t r = a % b;
      return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;
    }
    default:
      return std::nullopt;
  }
}

template <typename Node>
Expr MakeBinary(Expr a, Expr b) {
  MatchTypes(a, b);
  auto ca = AsConstInt(a);
  auto cb = AsConstInt(b);
  if (ca && cb) {
    if (auto v = FoldInt(Node::kKind, *ca, *cb)) return IntImm(a.dtype(), *v);
  }
  return Node::Make(std::move(a), std::move(b));
}

}  // namespace

void MatchTypes(Expr& a, Expr& b) {
  TF_CHECK(a.defined() && b.defined()) << "operator on an undefined expression";
  int lanes = std::max(a.dtype().lanes(), b.dtype().lanes());
  a = BroadcastTo(a, lanes);
  b = BroadcastTo(b, lanes);
  DataType ta = a.dtype(), tb = b.dtype();
  if (ta == tb) return;
  if (ta.is_float() != tb.is_float()) {
    DataType f = ta.is_float() ? ta : tb;
    if (!ta.is_float()) a = Cast(f, a);
    if (!tb.is_float()) b = Cast(f, b);
    return;
  }
  // Same family, or int vs uint: widen to the larger width; int wins over uint and bool.
  int bits = std::max(ta.bits(), tb.bits());
  DataType::Code code = ta.code();
  if (ta.is_int() || tb.is_int()) code = DataType::Code::kInt;
  if (ta.is_float()) code = DataType::Code::kFloat;
  if (code == DataType::Code::kInt && bits < 8) bits = 32;
  DataType target(code, bits, lanes);
  a = Cast(target, a);
  b = Cast(target, b);
}

Expr Cast(DataType t, Expr value) {
  if (value.dtype() == t) return value;
  if (t.is_scalar()) {
    if (auto c = AsConstInt(value)) return MakeConst(t, static_cast<double>(*c));
    if (const auto* f = value.As<FloatImmNode>()) {
      if (t.is_float()) return FloatImm(t, f->value);
    }
  }
  if (value.dtype().is_scalar() && t.is_vector()) {
    return BroadcastNode::Make(Cast(t.element_of(), std::move(value)), t.lanes());
  }
  return CastNode::Make(t, std::move(value));
}

Expr operator+(Expr a, Expr b) { return MakeBinary<AddNode>(std::move(a), std::move(b)); }
Expr operator-(Expr a, Expr b) { return MakeBinary<SubNode>(std::move(a), std::move(b)); }
Expr operator*(Expr a, Expr b) { return MakeBinary<MulNode>(std::move(a), std::move(b)); }
Expr operator-(Expr a) {
  if (auto c = AsConstInt(a)) return IntImm(a.dtype(), -*c);
  if (const auto* f = a.As<FloatImmNode>()) return FloatImm(a.dtype(), -f->value);
  DataType t = a.dtype();
  return MakeZero(t) - std::move(a);
}
Expr operator==(Expr a, Expr b) { return MakeBinary<EQNode>(std::move(a), std::move(b)); }
Expr operator!=(Expr a, Expr b) { return MakeBinary<NENode>(std::move(a), std::move(b)); }
Expr operator<(Expr a, Expr b) { return MakeBinary<LTNode>(std::move(a), std::move(b)); }
Expr operator<=(Expr a, Expr b) { return MakeBinary<LENode>(std::move(a), std::move(b)); }
Expr operator>(Expr a, Expr b) { return MakeBinary<GTNode>(std::move(a), std::move(b)); }
Expr operator>=(Expr a, Expr b) { return MakeBinary<GENode>(std::move(a), std::move(b)); }
Expr operator&&(Expr a, Expr b) {
  if (IsConstInt(a, 1)) return b;
  if (IsConstInt(b, 1)) return a;
  return MakeBinary<AndNode>(std::move(a), std::move(b));
}
Expr operator||(Expr a, Expr b) {
  if (IsConstInt(a, 0)) return b;
  if (IsConstInt(b, 0)) return a;
  return MakeBinary<OrNode>(std::move(a), std::move(b));
}
Expr operator!(Expr a) { return NotNode::Make(std::move(a)); }

Expr TruncDiv(Expr a, Expr b) { return MakeBinary<DivNode>(std::move(a), std::move(b)); }
Expr TruncMod(Expr a, Expr b) { return MakeBinary<ModNode>(std::move(a), std::move(b)); }
Expr FloorDiv(Expr a, Expr b) { return MakeBinary<FloorDivNode>(std::move(a), std::move(b)); }
Expr FloorMod(Expr a, Expr b) { return MakeBinary<FloorModNode>(std::move(a), std::move(b)); }
Expr Div(Expr a, Expr b) {
  MatchTypes(a, b);
  if (a.dtype().is_float()) return DivNode::Make(std::move(a), std::move(b));
  return FloorDiv(std::move(a), std::move(b));
}
Expr Min(Expr a, Expr b) { return MakeBinary<MinNode>(std::move(a), std::move(b)); }
Expr Max(Expr a, Expr b) { return MakeBinary<MaxNode>(std::move(a), std::move(b)); }

Expr Select(Expr c, Expr t, Expr f) {
  MatchTypes(t, f);
  return SelectNode::Make(std::move(c), std::move(t), std::move(f));
}

Expr IfThenElse(Expr c, Expr t, Expr f) {
  MatchTypes(t, f);
  return CallNode::Make(Intrinsic::kIfThenElse, {std::move(c), std::move(t), std::move(f)});
}

Expr Likely(Expr c) { return CallNode::Make(Intrinsic::kLikely, {std::move(c)}); }

Expr Call(Intrinsic op, std::vector<Expr> args) {
  switch (op) {
    case Intrinsic::kLikely:
    case Intrinsic::kIfThenElse:
    case Intrinsic::kSyncThreads:
    case Intrinsic::kDot4Add:
      break;
    case Intrinsic::kPow:
      MatchTypes(args[0], args[1]);
      [[fallthrough]];
    default:
      for (auto& a : args) {
        if (!a.dtype().is_float()) a = Cast(DataType::Float(32, a.dtype().lanes()), a);
      }
  }
  return CallNode::Make(op, std::move(args));
}

Expr FoldConstants(const Expr& e) {
  auto fold = [&](const Expr& a, const Expr& b) -> Expr {
    auto ca = AsConstInt(a);
    auto cb = AsConstInt(b);
    if (!ca || !cb) return e;
    auto v = FoldInt(e.kind(), *ca, *cb);
    return v ? IntImm(e.dtype(), *v) : e;
  };
  switch (e.kind()) {
#define TF_FOLD_CASE(Name) \
  case ExprKind::k##Name:  \
    return fold(e.As<Name##Node>()->a, e.As<Name##Node>()->b);
    TF_FOLD_CASE(Add)
    TF_FOLD_CASE(Sub)
    TF_FOLD_CASE(Mul)
    TF_FOLD_CASE(Div)
    TF_FOLD_CASE(Mod)
    TF_FOLD_CASE(FloorDiv)
    TF_FOLD_CASE(FloorMod)
    TF_FOLD_CASE(Min)
    TF_FOLD_CASE(Max)
#undef TF_FOLD_CASE
    default:
      return e;
  }
}

Expr MaxValue(DataType t) {
  DataType s = t.element_of();
  if (s.is_float()) {
    return FloatImm(
        s, s.bits() == 32 ? std::numeric_limits<float>::max() : std::numeric_limits<double>::max());
  }
  if (s.is_bool()) return IntImm(s, 1);
  if (s.is_int())
    return IntImm(s, s.bits() == 64 ? std::numeric_limits<int64_t>::max()
                                    : (int64_t{1} << (s.bits() - 1)) - 1);
  // uint64 max does not fit an int64 immediate; it is stored as -1 and read back as unsigned.
  return IntImm(s, s.bits() == 64 ? -1 : (int64_t{1} << s.bits()) - 1);
}

Expr MinValue(DataType t) {
  DataType s = t.element_of();
  if (s.is_float()) {
    return FloatImm(s, s.bits() == 32 ? -std::numeric_limits<float>::max()
                                      : -std::numeric_limits<double>::max());
  }
  if (s.is_int())
    return IntImm(
        s, s.bits() == 64 ? std::numeric_limits<int64_t>::min() : -(int64_t{1} << (s.bits() - 1)));
  return IntImm(s, 0);
}

}  // namespace tunefarm::ir
