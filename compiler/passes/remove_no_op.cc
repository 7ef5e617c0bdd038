#include "compiler/passes/remove_no_op.h"

#include "compiler/ir/mutator.h"
#include "compiler/ir/op.h"
#include "compiler/passes/buffer_access.h"

namespace tunefarm::passes {
namespace {

using ir::Stmt;

bool IsConstant(const ir::Expr& e) {
  return e.As<ir::IntImmNode>() || e.As<ir::FloatImmNode>() || e.As<ir::StringImmNode>();
}

class NoOpRemover : public ir::Mutator {
 protected:
  Stmt VisitStmt_(const ir::EvaluateNode* op) override {
    return IsConstant(op->value) ? ir::MakeNop() : Self(op);
  }

  Stmt VisitStmt_(const ir::ForNode* op) override {
    std::optional<int64_t> extent = ir::AsConstInt(op->extent);
    if (extent && *extent <= 0) return ir::MakeNop();
    Stmt s = Mutator::VisitStmt_(op);
    return ir::IsNop(s.As<ir::ForNode>()->body) ? ir::MakeNop() : s;
  }

  Stmt VisitStmt_(const ir::IfThenElseNode* op) override {
    if (std::optional<int64_t> c = ir::AsConstInt(op->condition)) {
      if (*c) return VisitStmt(op->then_case);
      return op->else_case.defined() ? VisitStmt(op->else_case) : ir::MakeNop();
    }
    Stmt s = Mutator::VisitStmt_(op);
    const auto* branch = s.As<ir::IfThenElseNode>();
    bool else_nop = !branch->else_case.defined() || ir::IsNop(branch->else_case);
    if (ir::IsNop(branch->then_case)) {
      if (else_nop) return ir::MakeNop();
      return ir::IfThenElseNode::Make(!branch->condition, branch->else_case);
    }
    if (else_nop && branch->else_case.defined()) {
      return ir::IfThenElseNode::Make(branch->condition, branch->then_case);
    }
    return s;
  }

  Stmt VisitStmt_(const ir::AllocateNode* op) override {
    Stmt s = Mutator::VisitStmt_(op);
    const auto* alloc = s.As<ir::AllocateNode>();
    if (ir::IsNop(alloc->body)) return alloc->body;
    if (!CollectAccess(alloc->body).Touches(alloc->buffer_var.get())) return alloc->body;
    return s;
  }

  Stmt VisitStmt_(const ir::LetStmtNode* op) override {
    Stmt s = Mutator::VisitStmt_(op);
    const auto* let = s.As<ir::LetStmtNode>();
    if (ir::IsNop(let->body) || !UsesVar(let->body, let->var)) return let->body;
    return s;
  }

  Stmt VisitStmt_(const ir::AttrStmtNode* op) override {
    Stmt s = Mutator::VisitStmt_(op);
    const auto* attr = s.As<ir::AttrStmtNode>();
    return ir::IsNop(attr->body) ? attr->body : s;
  }
};

}  // namespace

absl::StatusOr<ir::PrimFunc> RemoveNoOp(ir::PrimFunc f) {
  f.body = NoOpRemover().VisitStmt(f.body);
  return f;
}

}  // namespace tunefarm::passes
