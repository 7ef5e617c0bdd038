#include "tuner/search/index_evaluator.h"

#include <algorithm>

namespace tunefarm::tuner {
namespace {

// Let chains deeper than this are treated as unknown (they never occur in lowered index code,
// and a bound keeps a malformed cycle from recursing forever).
constexpr int kMaxDepth = 64;

int64_t FloorDivide(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

int64_t FloorModulo(int64_t a, int64_t b) { return a - FloorDivide(a, b) * b; }

}  // namespace

std::optional<int64_t> IndexEvaluator::EvalBinary(ir::ExprKind kind, const ir::Expr& a,
                                                  const ir::Expr& b, int depth) const {
  std::optional<int64_t> x = Eval(a, depth + 1);
  if (!x) return std::nullopt;
  std::optional<int64_t> y = Eval(b, depth + 1);
  if (!y) return std::nullopt;
  // Unsigned arithmetic wraps instead of overflowing; indices never get near the limit.
  const auto ux = static_cast<uint64_t>(*x), uy = static_cast<uint64_t>(*y);
  switch (kind) {
    case ir::ExprKind::kAdd:
      return static_cast<int64_t>(ux + uy);
    case ir::ExprKind::kSub:
      return static_cast<int64_t>(ux - uy);
    case ir::ExprKind::kMul:
      return static_cast<int64_t>(ux * uy);
    case ir::ExprKind::kDiv:
      return *y == 0 ? std::nullopt : std::optional<int64_t>(*x / *y);
    case ir::ExprKind::kMod:
      return *y == 0 ? std::nullopt : std::optional<int64_t>(*x % *y);
    case ir::ExprKind::kFloorDiv:
      return *y == 0 ? std::nullopt : std::optional<int64_t>(FloorDivide(*x, *y));
    case ir::ExprKind::kFloorMod:
      return *y == 0 ? std::nullopt : std::optional<int64_t>(FloorModulo(*x, *y));
    case ir::ExprKind::kMin:
      return std::min(*x, *y);
    case ir::ExprKind::kMax:
      return std::max(*x, *y);
    case ir::ExprKind::kEQ:
      return *x == *y;
    case ir::ExprKind::kNE:
      return *x != *y;
    case ir::ExprKind::kLT:
      return *x < *y;
    case ir::ExprKind::kLE:
      return *x <= *y;
    case ir::ExprKind::kGT:
      return *x > *y;
    case ir::ExprKind::kGE:
      return *x >= *y;
    case ir::ExprKind::kAnd:
      return *x != 0 && *y != 0;
    case ir::ExprKind::kOr:
      return *x != 0 || *y != 0;
    default:
      return std::nullopt;
  }
}

std::optional<int64_t> IndexEvaluator::Eval(const ir::Expr& e, int depth) const {
  if (!e.defined() || depth > kMaxDepth) return std::nullopt;
  if (e.dtype().is_float() || e.dtype().is_handle()) return std::nullopt;
  switch (e.kind()) {
    case ir::ExprKind::kIntImm:
      return e.As<ir::IntImmNode>()->value;
    case ir::ExprKind::kVar: {
      const auto* v = e.As<ir::VarNode>();
      if (auto it = values_.find(v); it != values_.end()) return it->second;
      if (auto it = lets_.find(v); it != lets_.end()) return Eval(it->second, depth + 1);
      return std::nullopt;
    }
#define TF_EVAL_BINARY(Name)                                       \
  case ir::ExprKind::k##Name: {                                    \
    const auto* op = e.As<ir::Name##Node>();                       \
    return EvalBinary(ir::ExprKind::k##Name, op->a, op->b, depth); \
  }
      TF_IR_BINARY_NODES(TF_EVAL_BINARY)
#undef TF_EVAL_BINARY
    case ir::ExprKind::kNot: {
      std::optional<int64_t> x = Eval(e.As<ir::NotNode>()->a, depth + 1);
      return x ? std::optional<int64_t>(*x == 0) : std::nullopt;
    }
    case ir::ExprKind::kSelect: {
      const auto* op = e.As<ir::SelectNode>();
      std::optional<int64_t> c = Eval(op->condition, depth + 1);
      if (!c) return std::nullopt;
      return Eval(*c != 0 ? op->true_value : op->false_value, depth + 1);
    }
    case ir::ExprKind::kCast:
      return Eval(e.As<ir::CastNode>()->value, depth + 1);
    case ir::ExprKind::kRamp:
      return Eval(e.As<ir::RampNode>()->base, depth + 1);
    case ir::ExprKind::kBroadcast:
      return Eval(e.As<ir::BroadcastNode>()->value, depth + 1);
    case ir::ExprKind::kCall: {
      const auto* op = e.As<ir::CallNode>();
      if (op->op == ir::Intrinsic::kLikely && op->args.size() == 1) {
        return Eval(op->args[0], depth + 1);
      }
      if (op->op == ir::Intrinsic::kIfThenElse && op->args.size() == 3) {
        std::optional<int64_t> c = Eval(op->args[0], depth + 1);
        if (!c) return std::nullopt;
        return Eval(*c != 0 ? op->args[1] : op->args[2], depth + 1);
      }
      return std::nullopt;
    }
    default:
      return std::nullopt;
  }
}

}  // namespace tunefarm::tuner
