#include "compiler/ir/arith/scoped_mutator.h"

#include "compiler/ir/op.h"

namespace tunefarm::arith {

ir::Stmt ScopedMutator::VisitStmt_(const ir::ForNode* op) {
  ir::Expr min = VisitExpr(op->min), extent = VisitExpr(op->extent);
  ir::Stmt body;
  {
    Analyzer::Scope scope = analyzer_->BindScoped(op->loop_var, ir::Range{min, extent});
    body = VisitStmt(op->body);
  }
  if (min.same_as(op->min) && extent.same_as(op->extent) && body.same_as(op->body)) {
    return Self(op);
  }
  return ir::ForNode::Make(op->loop_var, min, extent, op->for_kind, body, op->thread_tag);
}

ir::Stmt ScopedMutator::VisitStmt_(const ir::LetStmtNode* op) {
  ir::Expr value = VisitExpr(op->value);
  ir::Stmt body;
  {
    Analyzer::Scope scope = analyzer_->BindScoped(op->var, value);
    body = VisitStmt(op->body);
  }
  if (value.same_as(op->value) && body.same_as(op->body)) return Self(op);
  return ir::LetStmtNode::Make(op->var, value, body);
}

ir::Stmt ScopedMutator::VisitStmt_(const ir::AttrStmtNode* op) {
  ir::Expr value = op->value.defined() ? VisitExpr(op->value) : op->value;
  ir::Stmt body;
  {
    Analyzer::Scope scope = analyzer_->OpenScope();
    // A thread or virtual-thread index runs over [0, extent).
    const auto* iv = std::get_if<ir::IterVar>(&op->node);
    bool is_thread = op->key == ir::attr::kThreadExtent || op->key == ir::attr::kVirtualThread;
    if (iv != nullptr && iv->defined() && is_thread && value.defined()) {
      analyzer_->Bind((*iv)->var, ir::Range{ir::MakeZero(value.dtype()), value});
    }
    body = VisitStmt(op->body);
  }
  if (value.same_as(op->value) && body.same_as(op->body)) return Self(op);
  return ir::AttrStmtNode::Make(op->node, op->key, value, body);
}

ir::Stmt ScopedMutator::VisitStmt_(const ir::IfThenElseNode* op) {
  ir::Expr cond = VisitExpr(op->condition);
  ir::Stmt then_case, else_case;
  {
    Analyzer::Scope scope = analyzer_->EnterConstraint(cond);
    then_case = VisitStmt(op->then_case);
  }
  if (op->else_case.defined()) {
    Analyzer::Scope scope = analyzer_->EnterConstraint(ir::NotNode::Make(cond));
    else_case = VisitStmt(op->else_case);
  }
  if (cond.same_as(op->condition) && then_case.same_as(op->then_case) &&
      else_case.same_as(op->else_case)) {
    return Self(op);
  }
  return ir::IfThenElseNode::Make(cond, then_case, else_case);
}

ir::Stmt ScopedMutator::VisitStmt_(const ir::AssertStmtNode* op) {
  ir::Expr cond = VisitExpr(op->condition);
  ir::Stmt body;
  {
    // Past the assert, its condition holds.
    Analyzer::Scope scope = analyzer_->EnterConstraint(cond);
    body = VisitStmt(op->body);
  }
  if (cond.same_as(op->condition) && body.same_as(op->body)) return Self(op);
  return ir::AssertStmtNode::Make(cond, op->message, body);
}

}  // namespace tunefarm::arith
