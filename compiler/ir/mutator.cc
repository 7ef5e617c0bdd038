#include "compiler/ir/mutator.h"

namespace tunefarm::ir {
namespace {

bool SameAll(const std::vector<Expr>& a, const std::vector<Expr>& b) {
  for (size_t i = 0; i < a.size(); ++i) {
    if (!a[i].same_as(b[i])) return false;
  }
  return true;
}

}  // namespace

Expr Mutator::VisitExpr(const Expr& e) {
  expr_stack_.push_back(e);
  Expr r = ExprFunctor::VisitExpr(e);
  expr_stack_.pop_back();
  return r;
}

Stmt Mutator::VisitStmt(const Stmt& s) {
  stmt_stack_.push_back(s);
  Stmt r = StmtFunctor::VisitStmt(s);
  stmt_stack_.pop_back();
  return r;
}

Expr Mutator::Self(const ExprNode* op) const {
  TF_CHECK(!expr_stack_.empty() && expr_stack_.back().get() == op) << "Self outside its visit";
  return expr_stack_.back();
}

Stmt Mutator::Self(const StmtNode* op) const {
  TF_CHECK(!stmt_stack_.empty() && stmt_stack_.back().get() == op) << "Self outside its visit";
  return stmt_stack_.back();
}

Range Mutator::VisitRange(const Range& r) {
  return {r.min.defined() ? VisitExpr(r.min) : r.min,
          r.extent.defined() ? VisitExpr(r.extent) : r.extent};
}

Expr Mutator::VisitExpr_(const IntImmNode* op) { return Self(op); }
Expr Mutator::VisitExpr_(const FloatImmNode* op) { return Self(op); }
Expr Mutator::VisitExpr_(const StringImmNode* op) { return Self(op); }
Expr Mutator::VisitExpr_(const VarNode* op) { return Self(op); }

#define TF_MUTATE_BINARY(Name)                                 \
  Expr Mutator::VisitExpr_(const Name##Node* op) {             \
    Expr a = VisitExpr(op->a);                                 \
    Expr b = VisitExpr(op->b);                                 \
    if (a.same_as(op->a) && b.same_as(op->b)) return Self(op); \
    return Name##Node::Make(std::move(a), std::move(b));       \
  }
TF_IR_BINARY_NODES(TF_MUTATE_BINARY)
#undef TF_MUTATE_BINARY

Expr Mutator::VisitExpr_(const NotNode* op) {
  Expr a = VisitExpr(op->a);
  return a.same_as(op->a) ? Self(op) : NotNode::Make(a);
}
Expr Mutator::VisitExpr_(const SelectNode* op) {
  Expr c = VisitExpr(op->condition), t = VisitExpr(op->true_value), f = VisitExpr(op->false_value);
  if (c.same_as(op->condition) && t.same_as(op->true_value) && f.same_as(op->false_value)) {
    return Self(op);
  }
  return SelectNode::Make(c, t, f);
}
Expr Mutator::VisitExpr_(const CastNode* op) {
  Expr v = VisitExpr(op->value);
  return v.same_as(op->value) ? Self(op) : CastNode::Make(op->dtype, v);
}
Expr Mutator::VisitExpr_(const RampNode* op) {
  Expr b = VisitExpr(op->base), s = VisitExpr(op->stride);
  if (b.same_as(op->base) && s.same_as(op->stride)) return Self(op);
  return RampNode::Make(b, s, op->lanes);
}
Expr Mutator::VisitExpr_(const BroadcastNode* op) {
  Expr v = VisitExpr(op->value);
  return v.same_as(op->value) ? Self(op) : BroadcastNode::Make(v, op->lanes);
}
Expr Mutator::VisitExpr_(const LetNode* op) {
  Expr v = VisitExpr(op->value), b = VisitExpr(op->body);
  if (v.same_as(op->value) && b.same_as(op->body)) return Self(op);
  return LetNode::Make(op->var, v, b);
}
Expr Mutator::VisitExpr_(const CallNode* op) {
  std::vector<Expr> args;
  args.reserve(op->args.size());
  for (const auto& a : op->args) args.push_back(VisitExpr(a));
  if (SameAll(args, op->args)) return Self(op);
  return CallNode::Make(op->op, std::move(args));
}
Expr Mutator::VisitExpr_(const BufferLoadNode* op) {
  std::vector<Expr> idx;
  idx.reserve(op->indices.size());
  for (const auto& i : op->indices) idx.push_back(VisitExpr(i));
  if (SameAll(idx, op->indices)) return Self(op);
  return BufferLoadNode::Make(op->buffer, std::move(idx));
}
Expr Mutator::VisitExpr_(const LoadNode* op) {
  Expr i = VisitExpr(op->index);
  return i.same_as(op->index) ? Self(op) : LoadNode::Make(op->dtype, op->buffer_var, i);
}
Expr Mutator::VisitExpr_(const ReduceNode* op) {
  Expr s = VisitExpr(op->source), c = VisitExpr(op->condition);
  if (s.same_as(op->source) && c.same_as(op->condition)) return Self(op);
  return ReduceNode::Make(op->combiner, s, op->axis, c);
}

Stmt Mutator::VisitStmt_(const LetStmtNode* op) {
  Expr v = VisitExpr(op->value);
  Stmt b = VisitStmt(op->body);
  if (v.same_as(op->value) && b.same_as(op->body)) return Self(op);
  return LetStmtNode::Make(op->var, v, b);
}
Stmt Mutator::VisitStmt_(const AttrStmtNode* op) {
  Expr v = op->value.defined() ? VisitExpr(op->value) : op->value;
  Stmt b = VisitStmt(op->body);
  if (v.same_as(op->value) && b.same_as(op->body)) return Self(op);
  return AttrStmtNode::Make(op->node, op->key, v, b);
}
Stmt Mutator::VisitStmt_(const AssertStmtNode* op) {
  Expr c = VisitExpr(op->condition);
  Stmt b = VisitStmt(op->body);
  if (c.same_as(op->condition) && b.same_as(op->body)) return Self(op);
  return AssertStmtNode::Make(c, op->message, b);
}
Stmt Mutator::VisitStmt_(const BufferStoreNode* op) {
  Expr v = VisitExpr(op->value);
  std::vector<Expr> idx;
  idx.reserve(op->indices.size());
  for (const auto& i : op->indices) idx.push_back(VisitExpr(i));
  if (v.same_as(op->value) && SameAll(idx, op->indices)) return Self(op);
  return BufferStoreNode::Make(op->buffer, v, std::move(idx));
}
Stmt Mutator::VisitStmt_(const BufferRealizeNode* op) {
  bool same = true;
  std::vector<Range> bounds;
  for (const auto& r : op->bounds) {
    bounds.push_back(VisitRange(r));
    same = same && bounds.back().min.same_as(r.min) && bounds.back().extent.same_as(r.extent);
  }
  Stmt b = VisitStmt(op->body);
  if (same && b.same_as(op->body)) return Self(op);
  return BufferRealizeNode::Make(op->buffer, std::move(bounds), b);
}
Stmt Mutator::VisitStmt_(const StoreNode* op) {
  Expr v = VisitExpr(op->value), i = VisitExpr(op->index);
  if (v.same_as(op->value) && i.same_as(op->index)) return Self(op);
  return StoreNode::Make(op->buffer_var, v, i);
}
Stmt Mutator::VisitStmt_(const AllocateNode* op) {
  std::vector<Expr> ext;
  for (const auto& e : op->extents) ext.push_back(VisitExpr(e));
  Stmt b = VisitStmt(op->body);
  if (SameAll(ext, op->extents) && b.same_as(op->body)) return Self(op);
  return AllocateNode::Make(op->buffer_var, op->dtype, std::move(ext), op->scope, b);
}
Stmt Mutator::VisitStmt_(const ForNode* op) {
  Expr mn = VisitExpr(op->min), ext = VisitExpr(op->extent);
  Stmt b = VisitStmt(op->body);
  if (mn.same_as(op->min) && ext.same_as(op->extent) && b.same_as(op->body)) return Self(op);
  return ForNode::Make(op->loop_var, mn, ext, op->for_kind, b, op->thread_tag);
}
Stmt Mutator::VisitStmt_(const SeqStmtNode* op) {
  std::vector<Stmt> seq;
  bool same = true;
  for (const auto& s : op->seq) {
    seq.push_back(VisitStmt(s));
    same = same && seq.back().same_as(s);
  }
  if (same) return Self(op);
  return SeqStmtNode::Make(std::move(seq));
}
Stmt Mutator::VisitStmt_(const IfThenElseNode* op) {
  Expr c = VisitExpr(op->condition);
  Stmt t = VisitStmt(op->then_case);
  Stmt e = op->else_case.defined() ? VisitStmt(op->else_case) : op->else_case;
  if (c.same_as(op->condition) && t.same_as(op->then_case) && e.same_as(op->else_case)) {
    return Self(op);
  }
  return IfThenElseNode::Make(c, t, e);
}
Stmt Mutator::VisitStmt_(const EvaluateNode* op) {
  Expr v = VisitExpr(op->value);
  return v.same_as(op->value) ? Self(op) : EvaluateNode::Make(v);
}

namespace {

class ExprRewriter : public Mutator {
 public:
  explicit ExprRewriter(const std::function<Expr(const Expr&)>& f) : f_(f) {}
  Expr VisitExpr(const Expr& e) override {
    Expr r = f_(e);
    if (r.defined()) return r;
    return Mutator::VisitExpr(e);
  }

 private:
  const std::function<Expr(const Expr&)>& f_;
};

}  // namespace

Expr RewriteExpr(const Expr& e, const std::function<Expr(const Expr&)>& f) {
  return ExprRewriter(f).VisitExpr(e);
}
Stmt RewriteExprsIn(const Stmt& s, const std::function<Expr(const Expr&)>& f) {
  return ExprRewriter(f).VisitStmt(s);
}

Expr Substitute(const Expr& e, const VarMap& map) {
  if (map.empty()) return e;
  return RewriteExpr(e, [&](const Expr& x) -> Expr {
    if (const auto* v = x.As<VarNode>()) {
      auto it = map.find(v);
      if (it != map.end()) return it->second;
    }
    return Expr();
  });
}

Stmt Substitute(const Stmt& s, const VarMap& map) {
  if (map.empty()) return s;
  return RewriteExprsIn(s, [&](const Expr& x) -> Expr {
    if (const auto* v = x.As<VarNode>()) {
      auto it = map.find(v);
      if (it != map.end()) return it->second;
    }
    return Expr();
  });
}

}  // namespace tunefarm::ir
