#include "compiler/ir/simplify/rewriter.h"

#include <algorithm>
#include <cmath>

#include "compiler/ir/arith/var_use.h"
#include "compiler/ir/check.h"
#include "compiler/ir/simplify/const_fold.h"
#include "compiler/ir/simplify/simplify.h"
#include "compiler/ir/structural_equal.h"

namespace tunefarm::arith {

using ir::DataType;
using ir::Expr;
using ir::ExprKind;

Expr MakeBinaryNode(ExprKind kind, Expr a, Expr b) {
  switch (kind) {
#define TF_MAKE_CASE(Name) \
  case ExprKind::k##Name:  \
    return ir::Name##Node::Make(std::move(a), std::move(b));
    TF_IR_BINARY_NODES(TF_MAKE_CASE)
#undef TF_MAKE_CASE
    default:
      TF_UNREACHABLE() << "MakeBinaryNode of a non-binary kind";
  }
}

std::optional<std::pair<Expr, Expr>> OperandsOf(const Expr& e, ExprKind kind) {
  if (!e.defined() || e.kind() != kind) return std::nullopt;
  switch (kind) {
#define TF_OPERANDS_CASE(Name) \
  case ExprKind::k##Name:      \
    return std::pair{e.As<ir::Name##Node>()->a, e.As<ir::Name##Node>()->b};
    TF_IR_BINARY_NODES(TF_OPERANDS_CASE)
#undef TF_OPERANDS_CASE
    default:
      return std::nullopt;
  }
}

Expr Rewriter::Binary(ExprKind kind, const Expr& a, const Expr& b) {
  if (Expr folded = FoldBinary(kind, a, b); folded.defined()) return folded;
  if (a.dtype().is_vector()) {
    Expr v = VectorRule(kind, a, b);
    return v.defined() ? v : MakeBinaryNode(kind, a, b);
  }
  Expr r;
  switch (kind) {
    case ExprKind::kAdd:
      return AddRule(a, b);
    case ExprKind::kSub:
      return SubRule(a, b);
    case ExprKind::kMul:
      return MulRule(a, b);
    case ExprKind::kDiv:
    case ExprKind::kFloorDiv:
      return DivRule(kind, a, b);
    case ExprKind::kMod:
    case ExprKind::kFloorMod:
      return ModRule(kind, a, b);
    case ExprKind::kMin:
    case ExprKind::kMax:
      return MinMaxRule(kind, a, b);
    case ExprKind::kAnd:
    case ExprKind::kOr:
      r = AndOrRule(kind, a, b);
      break;
    default:
      r = CompareRule(kind, a, b);
      break;
  }
  // A condition assumed by an enclosing scope holds.
  if (!IsImmediate(r) && analyzer_->IsAssumed(r)) return ir::IntImm(DataType::Bool(), 1);
  return r;
}

#define TF_VISIT_BINARY(Name)                                                        \
  Expr Rewriter::VisitExpr_(const ir::Name##Node* op) {                              \
    Expr a = VisitExpr(op->a), b = VisitExpr(op->b);                                 \
    Expr r = Binary(ExprKind::k##Name, a, b);                                        \
    const auto* n = r.As<ir::Name##Node>();                                          \
    if (n != nullptr && n->a.same_as(op->a) && n->b.same_as(op->b)) return Self(op); \
    return r;                                                                        \
  }
TF_IR_BINARY_NODES(TF_VISIT_BINARY)
#undef TF_VISIT_BINARY

Expr Rewriter::VisitExpr_(const ir::NotNode* op) {
  Expr a = VisitExpr(op->a);
  Expr r = NotRule(a);
  const auto* n = r.As<ir::NotNode>();
  return (n != nullptr && n->a.same_as(op->a)) ? Self(op) : r;
}

Expr Rewriter::VisitExpr_(const ir::SelectNode* op) {
  Expr c = VisitExpr(op->condition), t = VisitExpr(op->true_value);
  Expr f = VisitExpr(op->false_value);
  if (c.same_as(op->condition) && t.same_as(op->true_value) && f.same_as(op->false_value)) {
    Expr r = SelectRule(c, t, f);
    return r.As<ir::SelectNode>() ? Self(op) : r;
  }
  return SelectRule(c, t, f);
}

Expr Rewriter::VisitExpr_(const ir::CastNode* op) {
  Expr v = VisitExpr(op->value);
  Expr r = CastRule(op->dtype, v);
  const auto* n = r.As<ir::CastNode>();
  return (n != nullptr && n->value.same_as(op->value)) ? Self(op) : r;
}

// True when every lane of `ramp`, computed without wrapping, lies in its element type.
bool Rewriter::RampFitsItsType(const ir::RampNode& ramp) {
  if (analyzer_ == nullptr) return false;
  ConstIntBound base = analyzer_->GetConstBound(ramp.base);
  ConstIntBound stride = analyzer_->GetConstBound(ramp.stride);
  ConstIntBound type = ConstIntBound::OfType(ramp.base.dtype());
  // Unknown bounds come back as the type's range (or infinite): either way the extremes below
  // leave it once the last lane's offset is added, so the rule does not fire.
  __int128 steps = ramp.lanes - 1;
  __int128 lo = static_cast<__int128>(base.min) + std::min<__int128>(0, steps * stride.min);
  __int128 hi = static_cast<__int128>(base.max) + std::max<__int128>(0, steps * stride.max);
  return lo >= type.min && hi <= type.max;
}

Expr Rewriter::CastRule(DataType t, const Expr& value) {
  if (value.dtype() == t) return value;
  if (Expr folded = FoldCast(t, value); folded.defined()) return folded;
  if (const auto* b = value.As<ir::BroadcastNode>()) {
    return ir::BroadcastNode::Make(CastRule(t.element_of(), b->value), b->lanes);
  }
  // Widening a signed ramp whose lanes provably fit the narrow type (so none wrapped) is a ramp of
  // the widened base and stride. Without this an int64 buffer index over an int32 loop stays a
  // cast vector, and code generators emit a gather instead of one vector load.
  if (const auto* ramp = value.As<ir::RampNode>()) {
    DataType s = value.dtype();
    if (s.is_int() && t.is_int() && t.bits() >= s.bits() && RampFitsItsType(*ramp)) {
      return ir::RampNode::Make(CastRule(t.element_of(), ramp->base),
                                CastRule(t.element_of(), ramp->stride), ramp->lanes);
    }
  }
  // A round trip through a type at least as wide gives the value back.
  if (const auto* inner = value.As<ir::CastNode>()) {
    DataType s = value.dtype();
    if (inner->value.dtype() == t && t.is_integral() && s.is_integral() && !s.is_bool() &&
        s.bits() >= t.bits()) {
      return inner->value;
    }
  }
  return ir::CastNode::Make(t, value);
}

Expr Rewriter::VisitExpr_(const ir::RampNode* op) {
  Expr base = VisitExpr(op->base), stride = VisitExpr(op->stride);
  if (ir::IsConstInt(stride, 0)) return ir::BroadcastNode::Make(base, op->lanes);
  if (base.same_as(op->base) && stride.same_as(op->stride)) return Self(op);
  return ir::RampNode::Make(base, stride, op->lanes);
}

Expr Rewriter::VisitExpr_(const ir::BroadcastNode* op) {
  Expr v = VisitExpr(op->value);
  return v.same_as(op->value) ? Self(op) : ir::BroadcastNode::Make(v, op->lanes);
}

Expr Rewriter::VisitExpr_(const ir::LetNode* op) {
  Expr value = VisitExpr(op->value);
  // Constants and variables cost nothing to repeat: substitute them (not handles, which
  // Load/Store name by a Var field that substitution does not rewrite).
  if (IsImmediate(value) || (value.As<ir::VarNode>() != nullptr && !value.dtype().is_handle())) {
    return VisitExpr(ir::Substitute(op->body, {{op->var.get(), value}}));
  }
  Expr body;
  {
    Analyzer::Scope scope = analyzer_->BindScoped(op->var, value);
    body = VisitExpr(op->body);
  }
  if (!UsesVar(body, op->var.get())) return body;
  if (value.same_as(op->value) && body.same_as(op->body)) return Self(op);
  return ir::LetNode::Make(op->var, value, body);
}

Expr Rewriter::VisitIfThenElse(const ir::CallNode* op) {
  Expr c = VisitExpr(op->args[0]);
  if (auto v = ir::AsConstInt(c)) return VisitExpr(op->args[*v != 0 ? 1 : 2]);
  Expr t, f;
  {
    Analyzer::Scope scope = analyzer_->EnterConstraint(c);
    t = VisitExpr(op->args[1]);
  }
  {
    Analyzer::Scope scope = analyzer_->EnterConstraint(NotRule(c));
    f = VisitExpr(op->args[2]);
  }
  if (ir::StructuralEqual(t, f)) return t;
  if (c.same_as(op->args[0]) && t.same_as(op->args[1]) && f.same_as(op->args[2])) return Self(op);
  return ir::CallNode::Make(ir::Intrinsic::kIfThenElse, {c, t, f});
}

Expr Rewriter::VisitExpr_(const ir::CallNode* op) {
  if (op->op == ir::Intrinsic::kIfThenElse) return VisitIfThenElse(op);
  Expr r = Mutator::VisitExpr_(op);
  const auto* call = r.As<ir::CallNode>();
  if (call == nullptr || call->args.size() != 1) return r;
  const Expr& x = call->args[0];
  // likely(c) is c once c is decided.
  if (call->op == ir::Intrinsic::kLikely) return IsImmediate(x) ? x : r;
  // Exact float functions of constants fold; transcendental ones are left to the target's libm.
  const auto* f = x.As<ir::FloatImmNode>();
  if (f == nullptr || (x.dtype().bits() != 32 && x.dtype().bits() != 64)) return r;
  switch (call->op) {
    case ir::Intrinsic::kFabs:
      return ir::FloatImm(x.dtype(), std::fabs(f->value));
    case ir::Intrinsic::kFloor:
      return ir::FloatImm(x.dtype(), std::floor(f->value));
    case ir::Intrinsic::kCeil:
      return ir::FloatImm(x.dtype(), std::ceil(f->value));
    case ir::Intrinsic::kRound:
      return ir::FloatImm(x.dtype(), std::nearbyint(f->value));
    default:
      return r;
  }
}

Expr Rewriter::VisitExpr_(const ir::ReduceNode* op) {
  Analyzer::Scope scope = analyzer_->OpenScope();
  for (const auto& iv : op->axis) {
    if (iv->dom.min.defined() && iv->dom.extent.defined()) analyzer_->Bind(iv->var, iv->dom);
  }
  Expr source = VisitExpr(op->source), cond = VisitExpr(op->condition);
  if (source.same_as(op->source) && cond.same_as(op->condition)) return Self(op);
  return ir::ReduceNode::Make(op->combiner, source, op->axis, cond);
}

Expr Simplify(const Expr& e, Analyzer* analyzer) {
  // Leaves are already simplest.
  if (!e.defined() || e.kind() == ExprKind::kIntImm || e.kind() == ExprKind::kVar) return e;
  Analyzer local;
  Rewriter rewriter(analyzer != nullptr ? analyzer : &local);
  // One bottom-up pass usually reaches the fixed point; a rule that exposes a new opportunity
  // above it needs another. The bound keeps a rule cycle (a bug) from hanging.
  constexpr int kMaxPasses = 4;
  Expr current = e;
  for (int pass = 0; pass < kMaxPasses; ++pass) {
    Expr next = rewriter.VisitExpr(current);
    if (next.same_as(current) || ir::StructuralEqual(next, current)) return current;
    current = next;
  }
  return current;
}

}  // namespace tunefarm::arith
