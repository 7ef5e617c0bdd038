// The statement simplifier: simplifies every expression with the analyzer that the scoped
// mutator keeps in step with loops, lets and branches, and removes what became dead: decided
// branches, empty loops, single-iteration loops (not thread-bound ones, whose index is a
// hardware thread) and lets that nothing uses.
#include "compiler/ir/arith/scoped_mutator.h"
#include "compiler/ir/arith/var_use.h"
#include "compiler/ir/simplify/const_fold.h"
#include "compiler/ir/simplify/simplify.h"

namespace tunefarm::arith {
namespace {

using ir::Expr;
using ir::Stmt;

// Values that cost nothing to repeat; handles are excluded because Load/Store name their buffer
// by a Var field that substitution does not rewrite.
bool IsTrivialValue(const Expr& v) {
  return IsImmediate(v) || (v.As<ir::VarNode>() != nullptr && !v.dtype().is_handle());
}

class StmtSimplifier : public ScopedMutator {
 public:
  using ScopedMutator::ScopedMutator;
  using ScopedMutator::VisitStmt;

  Expr VisitExpr(const Expr& e) override { return analyzer_->Simplify(e); }

 protected:
  Stmt VisitStmt_(const ir::ForNode* op) override {
    bool removable = op->for_kind != ir::ForKind::kThreadBinding;
    if (removable) {
      Expr extent = VisitExpr(op->extent);
      if (analyzer_->CanProveLess(extent, 1)) return ir::MakeNop();
      if (ir::IsConstInt(extent, 1)) {
        Expr min = VisitExpr(op->min);
        return VisitStmt(ir::Substitute(op->body, {{op->loop_var.get(), min}}));
      }
    }
    Stmt s = ScopedMutator::VisitStmt_(op);
    const auto* loop = s.As<ir::ForNode>();
    if (removable && loop != nullptr && ir::IsNop(loop->body)) return loop->body;
    return s;
  }

  Stmt VisitStmt_(const ir::LetStmtNode* op) override {
    Expr value = VisitExpr(op->value);
    if (IsTrivialValue(value)) return VisitStmt(ir::Substitute(op->body, {{op->var.get(), value}}));
    Stmt s = ScopedMutator::VisitStmt_(op);
    const auto* let = s.As<ir::LetStmtNode>();
    if (let != nullptr && !UsesVar(let->body, let->var.get())) return let->body;
    return s;
  }

  Stmt VisitStmt_(const ir::IfThenElseNode* op) override {
    Expr cond = VisitExpr(op->condition);
    if (auto v = ir::AsConstInt(cond)) {
      if (*v != 0) return VisitStmt(op->then_case);
      return op->else_case.defined() ? VisitStmt(op->else_case) : ir::MakeNop();
    }
    Stmt s = ScopedMutator::VisitStmt_(op);
    const auto* branch = s.As<ir::IfThenElseNode>();
    if (branch == nullptr) return s;
    bool then_nop = ir::IsNop(branch->then_case);
    bool else_nop = !branch->else_case.defined() || ir::IsNop(branch->else_case);
    if (then_nop && else_nop) return ir::MakeNop();
    if (else_nop && branch->else_case.defined()) {
      return ir::IfThenElseNode::Make(branch->condition, branch->then_case);
    }
    if (then_nop) {
      return ir::IfThenElseNode::Make(VisitExpr(ir::NotNode::Make(branch->condition)),
                                      branch->else_case);
    }
    return s;
  }

  Stmt VisitStmt_(const ir::AssertStmtNode* op) override {
    if (ir::IsConstInt(VisitExpr(op->condition), 1)) return VisitStmt(op->body);
    return ScopedMutator::VisitStmt_(op);
  }
};

}  // namespace

Stmt SimplifyStmt(const Stmt& s, Analyzer* analyzer) {
  if (!s.defined()) return s;
  Analyzer local;
  StmtSimplifier simplifier(analyzer != nullptr ? analyzer : &local);
  return simplifier.VisitStmt(s);
}

}  // namespace tunefarm::arith
