// Random int32 index expressions over a few variables, and a reference evaluator with the IR's
// semantics, shared by the randomized simplifier and interval tests.
#pragma once

#include <cstdint>
#include <optional>
#include <random>
#include <unordered_map>
#include <vector>

#include "compiler/ir/expr.h"
#include "compiler/ir/op.h"

namespace tunefarm::arith::testing {

using Assignment = std::unordered_map<const ir::VarNode*, int64_t>;

// Evaluates an int32/bool expression exactly in int64, wrapping each int32 result like the IR.
// `overflowed` is set when some int32 node's exact value left the int32 range (the simplifier
// assumes that never happens). nullopt on division by zero or an unsupported node.
class RefEvaluator {
 public:
  explicit RefEvaluator(const Assignment& values) : values_(values) {}
  bool overflowed() const { return overflowed_; }

  std::optional<int64_t> Eval(const ir::Expr& e) {
    using K = ir::ExprKind;
    if (auto c = ir::AsConstInt(e)) return *c;
    if (const auto* v = e.As<ir::VarNode>()) {
      auto it = values_.find(v);
      return it == values_.end() ? std::nullopt : std::optional(it->second);
    }
    if (const auto* s = e.As<ir::SelectNode>()) {
      auto c = Eval(s->condition), t = Eval(s->true_value), f = Eval(s->false_value);
      if (!c || !t || !f) return std::nullopt;
      return *c ? *t : *f;
    }
    if (const auto* n = e.As<ir::NotNode>()) {
      auto a = Eval(n->a);
      return a ? std::optional<int64_t>(*a == 0) : std::nullopt;
    }
    if (const auto* c = e.As<ir::CastNode>()) return Eval(c->value);
    switch (e.kind()) {
#define TF_EVAL_BINARY(Name) \
  case K::k##Name:           \
    return Binary(K::k##Name, e.As<ir::Name##Node>()->a, e.As<ir::Name##Node>()->b, e.dtype());
      TF_IR_BINARY_NODES(TF_EVAL_BINARY)
#undef TF_EVAL_BINARY
      default:
        return std::nullopt;
    }
  }

 private:
  std::optional<int64_t> Binary(ir::ExprKind kind, const ir::Expr& ea, const ir::Expr& eb,
                                ir::DataType t) {
    using K = ir::ExprKind;
    auto a = Eval(ea), b = Eval(eb);
    if (!a || !b) return std::nullopt;
    int64_t x = *a, y = *b, r = 0;
    bool is_div =
        kind == K::kDiv || kind == K::kMod || kind == K::kFloorDiv || kind == K::kFloorMod;
    if (is_div && y == 0) return std::nullopt;
    switch (kind) {
      case K::kAdd:
        r = x + y;
        break;
      case K::kSub:
        r = x - y;
        break;
      case K::kMul:
        r = x * y;
        break;
      case K::kDiv:
        r = x / y;
        break;
      case K::kMod:
        r = x % y;
        break;
      case K::kFloorDiv:
        r = x / y - ((x % y != 0 && ((x < 0) != (y < 0))) ? 1 : 0);
        break;
      case K::kFloorMod: {
        int64_t m = x % y;
        r = (m != 0 && ((m < 0) != (y < 0))) ? m + y : m;
        break;
      }
      case K::kMin:
        r = std::min(x, y);
        break;
      case K::kMax:
        r = std::max(x, y);
        break;
      case K::kEQ:
        return x == y;
      case K::kNE:
        return x != y;
      case K::kLT:
        return x < y;
      case K::kLE:
        return x <= y;
      case K::kGT:
        return x > y;
      case K::kGE:
        return x >= y;
      case K::kAnd:
        return x != 0 && y != 0;
      case K::kOr:
        return x != 0 || y != 0;
      default:
        return std::nullopt;
    }
    if (t.is_int() && t.bits() == 32 && (r < INT32_MIN || r > INT32_MAX)) {
      overflowed_ = true;
      r = static_cast<int32_t>(static_cast<uint32_t>(static_cast<uint64_t>(r)));
    }
    return r;
  }

  const Assignment& values_;
  bool overflowed_ = false;
};

// Generates random int32 expressions over `vars` from + - * floordiv floormod truncdiv truncmod
// (by nonzero constants), min, max, select and comparisons.
class RandomExprGen {
 public:
  RandomExprGen(std::vector<ir::Var> vars, uint32_t seed) : vars_(std::move(vars)), rng_(seed) {}

  ir::Expr Int(int depth) {
    if (depth <= 0 || Pick(5) == 0) return Leaf();
    switch (Pick(12)) {
      case 0:
      case 1:
        return Int(depth - 1) + Int(depth - 1);
      case 2:
        return Int(depth - 1) - Int(depth - 1);
      case 3:
        return Int(depth - 1) * (Pick(3) == 0 ? Int(depth - 2) : Const(-5, 5));
      case 4:
        return ir::FloorDivNode::Make(Int(depth - 1), NonZero());
      case 5:
        return ir::FloorModNode::Make(Int(depth - 1), NonZero());
      case 6:
        return ir::DivNode::Make(Int(depth - 1), NonZero());
      case 7:
        return ir::ModNode::Make(Int(depth - 1), NonZero());
      case 8:
        return ir::MinNode::Make(Int(depth - 1), Int(depth - 1));
      case 9:
        return ir::MaxNode::Make(Int(depth - 1), Int(depth - 1));
      case 10:
        return ir::SelectNode::Make(Bool(depth - 1), Int(depth - 1), Int(depth - 1));
      default:
        return Int(depth - 1) + Const(-8, 8);
    }
  }

  ir::Expr Bool(int depth) {
    if (depth > 1 && Pick(4) == 0) {
      switch (Pick(3)) {
        case 0:
          return ir::AndNode::Make(Bool(depth - 1), Bool(depth - 1));
        case 1:
          return ir::OrNode::Make(Bool(depth - 1), Bool(depth - 1));
        default:
          return ir::NotNode::Make(Bool(depth - 1));
      }
    }
    ir::Expr a = Int(depth - 1), b = Int(depth - 1);
    switch (Pick(6)) {
      case 0:
        return ir::LTNode::Make(a, b);
      case 1:
        return ir::LENode::Make(a, b);
      case 2:
        return ir::GTNode::Make(a, b);
      case 3:
        return ir::GENode::Make(a, b);
      case 4:
        return ir::EQNode::Make(a, b);
      default:
        return ir::NENode::Make(a, b);
    }
  }

  int64_t Uniform(int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng_);
  }

 private:
  int Pick(int n) { return static_cast<int>(Uniform(0, n - 1)); }
  ir::Expr Const(int64_t lo, int64_t hi) {
    return ir::IntImm(ir::DataType::Int(32), Uniform(lo, hi));
  }
  ir::Expr NonZero() {
    int64_t v = Uniform(1, 9);
    // Mostly positive divisors, which the rules target; some negative ones to check they don't.
    return ir::IntImm(ir::DataType::Int(32), Pick(5) == 0 ? -v : v);
  }
  ir::Expr Leaf() {
    if (Pick(3) == 0) return Const(-10, 10);
    return vars_[static_cast<size_t>(Pick(static_cast<int>(vars_.size())))];
  }

  std::vector<ir::Var> vars_;
  std::mt19937 rng_;
};

}  // namespace tunefarm::arith::testing
