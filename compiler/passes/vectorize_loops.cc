#include "compiler/passes/vectorize_loops.h"

#include <algorithm>
#include <optional>
#include <spdlog/spdlog.h>
#include <string>
#include <utility>

#include "compiler/ir/mutator.h"
#include "compiler/ir/op.h"
#include "compiler/ir/printer.h"
#include "compiler/passes/pass.h"

namespace tunefarm::passes {
namespace {

using ir::Expr;
using ir::Stmt;

Expr BroadcastTo(const Expr& e, int lanes) {
  if (e.dtype().lanes() == lanes) return e;
  return ir::BroadcastNode::Make(e, lanes);
}

// An integer vector as ramp(base, stride); a broadcast is a ramp of stride 0.
std::optional<std::pair<Expr, Expr>> AsRamp(const Expr& e) {
  if (const auto* r = e.As<ir::RampNode>()) return std::make_pair(r->base, r->stride);
  if (const auto* b = e.As<ir::BroadcastNode>()) {
    return std::make_pair(b->value, ir::MakeZero(b->value.dtype()));
  }
  return std::nullopt;
}

// a + b, a - b and a * b without the identities a ramp of a broadcast would add (x + 0, x * 1).
Expr Plus(const Expr& a, const Expr& b) {
  if (ir::IsConstInt(b, 0)) return a;
  return ir::IsConstInt(a, 0) ? b : a + b;
}
Expr Minus(const Expr& a, const Expr& b) { return ir::IsConstInt(b, 0) ? a : a - b; }
Expr Times(const Expr& a, const Expr& b) {
  if (ir::IsConstInt(b, 1)) return a;
  return ir::IsConstInt(a, 1) ? b : a * b;
}

// Keeps sums, differences and scaled ramps as ramps, so vector indices stay recognizable as
// contiguous or strided accesses. Undefined when the operands do not fold.
Expr FoldRamp(ir::ExprKind kind, const Expr& a, const Expr& b) {
  if (!a.dtype().is_int() || (!a.As<ir::RampNode>() && !b.As<ir::RampNode>())) return Expr();
  auto ra = AsRamp(a);
  auto rb = AsRamp(b);
  if (!ra || !rb) return Expr();
  int lanes = a.dtype().lanes();
  auto [base_a, stride_a] = *ra;
  auto [base_b, stride_b] = *rb;
  switch (kind) {
    case ir::ExprKind::kAdd:
      return ir::RampNode::Make(Plus(base_a, base_b), Plus(stride_a, stride_b), lanes);
    case ir::ExprKind::kSub:
      return ir::RampNode::Make(Minus(base_a, base_b), Minus(stride_a, stride_b), lanes);
    case ir::ExprKind::kMul:
      if (b.As<ir::BroadcastNode>()) {
        return ir::RampNode::Make(Times(base_a, base_b), Times(stride_a, base_b), lanes);
      }
      if (a.As<ir::BroadcastNode>()) {
        return ir::RampNode::Make(Times(base_a, base_b), Times(base_a, stride_b), lanes);
      }
      return Expr();
    default:
      return Expr();
  }
}

// Rewrites one loop body with the loop variable as a ramp. On anything it cannot vectorize it
// records why and returns nodes unchanged, and the caller keeps the loop serial.
class Vectorizer : public ir::Mutator {
 public:
  Vectorizer(const ir::Var& var, Expr ramp) : var_(var), ramp_(std::move(ramp)) {}

  bool failed() const { return !reason_.empty(); }
  const std::string& reason() const { return reason_; }

  Expr VisitExpr(const Expr& e) override {
    if (failed()) return e;
    if (e.dtype().is_vector()) return Fail(e, "it already holds vector values");
    return Mutator::VisitExpr(e);
  }
  Stmt VisitStmt(const Stmt& s) override { return failed() ? s : Mutator::VisitStmt(s); }

 protected:
  Expr VisitExpr_(const ir::VarNode* op) override {
    if (op == var_.get()) return ramp_;
    auto it = remap_.find(op);
    return it != remap_.end() ? it->second : Self(op);
  }
#define TF_VECTORIZE_BINARY(Name) \
  Expr VisitExpr_(const ir::Name##Node* op) override { return Binary(op); }
  TF_IR_BINARY_NODES(TF_VECTORIZE_BINARY)
#undef TF_VECTORIZE_BINARY

  Expr VisitExpr_(const ir::SelectNode* op) override {
    Expr c = VisitExpr(op->condition), t = VisitExpr(op->true_value);
    Expr f = VisitExpr(op->false_value);
    bool same = c.same_as(op->condition) && t.same_as(op->true_value) && f.same_as(op->false_value);
    if (failed() || same) return Self(op);
    int lanes = std::max({c.dtype().lanes(), t.dtype().lanes(), f.dtype().lanes()});
    return ir::SelectNode::Make(c, BroadcastTo(t, lanes), BroadcastTo(f, lanes));
  }
  Expr VisitExpr_(const ir::CastNode* op) override {
    Expr v = VisitExpr(op->value);
    if (failed() || v.same_as(op->value)) return Self(op);
    return ir::CastNode::Make(op->dtype.with_lanes(v.dtype().lanes()), v);
  }
  Expr VisitExpr_(const ir::LetNode* op) override {
    Expr value = VisitExpr(op->value);
    ir::Var var = BindLet(op->var, value);
    Expr body = VisitExpr(op->body);
    remap_.erase(op->var.get());
    if (failed()) return Self(op);
    if (value.same_as(op->value) && body.same_as(op->body)) return Self(op);
    return ir::LetNode::Make(var, value, body);
  }
  Expr VisitExpr_(const ir::CallNode* op) override;
  Expr VisitExpr_(const ir::LoadNode* op) override {
    Expr index = VisitExpr(op->index);
    if (failed() || index.same_as(op->index)) return Self(op);
    return ir::LoadNode::Make(op->dtype.with_lanes(index.dtype().lanes()), op->buffer_var, index);
  }
  Expr VisitExpr_(const ir::BufferLoadNode* op) override {
    return Fail(Self(op), "it is not flattened");
  }
  Expr VisitExpr_(const ir::ReduceNode* op) override {
    return Fail(Self(op), "it holds a reduction");
  }

  Stmt VisitStmt_(const ir::StoreNode* op) override;
  Stmt VisitStmt_(const ir::IfThenElseNode* op) override;
  Stmt VisitStmt_(const ir::LetStmtNode* op) override;
  Stmt VisitStmt_(const ir::AttrStmtNode* op) override {
    if (op->value.defined() && VisitExpr(op->value).dtype().is_vector()) {
      return Fail(Self(op), "an attribute value varies across lanes");
    }
    return Mutator::VisitStmt_(op);
  }
  Stmt VisitStmt_(const ir::EvaluateNode* op) override {
    return ir::IsNop(Self(op)) ? Self(op) : Fail(Self(op), "it evaluates a call (a barrier?)");
  }
  Stmt VisitStmt_(const ir::ForNode* op) override { return Fail(Self(op), "it holds a loop"); }
  Stmt VisitStmt_(const ir::AllocateNode* op) override { return Fail(Self(op), "it allocates"); }
  Stmt VisitStmt_(const ir::AssertStmtNode* op) override { return Fail(Self(op), "it asserts"); }
  Stmt VisitStmt_(const ir::BufferStoreNode* op) override {
    return Fail(Self(op), "it is not flattened");
  }
  Stmt VisitStmt_(const ir::BufferRealizeNode* op) override {
    return Fail(Self(op), "it is not flattened");
  }

 private:
  template <typename Node>
  Expr Binary(const Node* op) {
    Expr a = VisitExpr(op->a), b = VisitExpr(op->b);
    if (failed() || (a.same_as(op->a) && b.same_as(op->b))) return Self(op);
    int lanes = std::max(a.dtype().lanes(), b.dtype().lanes());
    a = BroadcastTo(a, lanes);
    b = BroadcastTo(b, lanes);
    if (Expr folded = FoldRamp(Node::kKind, a, b); folded.defined()) return folded;
    return Node::Make(a, b);
  }

  // A let whose value became a vector binds a fresh vector variable.
  ir::Var BindLet(const ir::Var& var, const Expr& value) {
    if (failed() || !value.dtype().is_vector()) return var;
    ir::Var vector_var(var.name(), value.dtype());
    remap_[var.get()] = vector_var;
    return vector_var;
  }

  template <typename T>
  T Fail(T node, const char* why) {
    if (reason_.empty()) reason_ = why;
    return node;
  }

  ir::Var var_;
  Expr ramp_;
  ir::VarMap remap_;
  std::string reason_;
};

Expr Vectorizer::VisitExpr_(const ir::CallNode* op) {
  if (op->op == ir::Intrinsic::kSyncThreads) return Fail(Self(op), "it holds a barrier");
  std::vector<Expr> args;
  for (const auto& a : op->args) args.push_back(VisitExpr(a));
  if (failed()) return Self(op);
  if (op->op == ir::Intrinsic::kDot4Add) {
    for (size_t i = 0; i < args.size(); ++i) {
      if (!args[i].same_as(op->args[i])) return Fail(Self(op), "a dot4_add does not widen");
    }
    return Self(op);
  }
  if (op->op == ir::Intrinsic::kIfThenElse && args[0].dtype().is_vector()) {
    // Lanes would evaluate both operands, which if_then_else exists to avoid.
    return Fail(Self(op), "an if_then_else condition varies across lanes");
  }
  size_t first_value = op->op == ir::Intrinsic::kIfThenElse ? 1 : 0;
  int lanes = 1;
  for (size_t i = first_value; i < args.size(); ++i)
    lanes = std::max(lanes, args[i].dtype().lanes());
  bool same = true;
  for (size_t i = 0; i < args.size(); ++i) {
    if (i >= first_value) args[i] = BroadcastTo(args[i], lanes);
    same = same && args[i].same_as(op->args[i]);
  }
  return same ? Self(op) : ir::CallNode::Make(op->op, std::move(args));
}

Stmt Vectorizer::VisitStmt_(const ir::StoreNode* op) {
  Expr value = VisitExpr(op->value), index = VisitExpr(op->index);
  if (failed()) return Self(op);
  // Every lane would write the same element: a reduction, whose order the loop must keep.
  if (index.dtype().is_scalar()) return Fail(Self(op), "a store index does not vary across lanes");
  return ir::StoreNode::Make(op->buffer_var, BroadcastTo(value, index.dtype().lanes()), index);
}

Stmt Vectorizer::VisitStmt_(const ir::IfThenElseNode* op) {
  if (VisitExpr(op->condition).dtype().is_vector()) {
    return Fail(Self(op), "a branch condition varies across lanes");
  }
  return Mutator::VisitStmt_(op);
}

Stmt Vectorizer::VisitStmt_(const ir::LetStmtNode* op) {
  Expr value = VisitExpr(op->value);
  ir::Var var = BindLet(op->var, value);
  Stmt body = VisitStmt(op->body);
  remap_.erase(op->var.get());
  if (failed()) return Self(op);
  if (value.same_as(op->value) && body.same_as(op->body)) return Self(op);
  return ir::LetStmtNode::Make(var, value, body);
}

Stmt VectorizeLoop(const ir::ForNode* loop) {
  auto serial = [&](const std::string& why) {
    PassLogger().debug("vectorize_loops: loop {} stays serial: {}", loop->loop_var.name(), why);
    return ir::ForNode::Make(loop->loop_var, loop->min, loop->extent, ir::ForKind::kSerial,
                             loop->body);
  };
  std::optional<int64_t> lanes = ir::AsConstInt(loop->extent);
  if (!lanes) return serial("its extent " + ir::ToString(loop->extent) + " is not constant");
  if (*lanes <= 1 || *lanes > 0xffff) return serial("its extent is not a vector width");
  Expr ramp =
      ir::RampNode::Make(loop->min, ir::MakeOne(loop->min.dtype()), static_cast<int>(*lanes));
  Vectorizer vectorizer(loop->loop_var, ramp);
  Stmt body = vectorizer.VisitStmt(loop->body);
  if (vectorizer.failed()) return serial(vectorizer.reason());
  return body;
}

class LoopVectorizer : public ir::Mutator {
 protected:
  Stmt VisitStmt_(const ir::ForNode* op) override {
    Stmt s = Mutator::VisitStmt_(op);  // inner loops first
    const auto* loop = s.As<ir::ForNode>();
    if (!loop || loop->for_kind != ir::ForKind::kVectorized) return s;
    return VectorizeLoop(loop);
  }
};

}  // namespace

absl::StatusOr<ir::PrimFunc> VectorizeLoops(ir::PrimFunc f) {
  f.body = LoopVectorizer().VisitStmt(f.body);
  return f;
}

}  // namespace tunefarm::passes
