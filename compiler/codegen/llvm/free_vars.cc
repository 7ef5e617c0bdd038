#include "compiler/codegen/llvm/free_vars.h"

#include <unordered_set>

#include "compiler/ir/visitor.h"

namespace tunefarm::codegen {
namespace {

// Definitions are recorded before their bodies are visited; the IR binds each variable once, so
// a set without scopes is enough.
class FreeVarCollector : public ir::Visitor {
 public:
  std::vector<ir::Var> free;

  void VisitExpr(const ir::Expr& e) override {
    if (e.kind() == ir::ExprKind::kVar) {
      Use(ir::Var(std::static_pointer_cast<const ir::VarNode>(e.node_ptr())));
      return;
    }
    ir::Visitor::VisitExpr(e);
  }

 protected:
  void VisitExpr_(const ir::LetNode* op) override {
    VisitExpr(op->value);
    Define(op->var);
    VisitExpr(op->body);
  }
  void VisitExpr_(const ir::LoadNode* op) override {
    Use(op->buffer_var);
    ir::Visitor::VisitExpr_(op);
  }
  void VisitExpr_(const ir::ReduceNode* op) override {
    for (const ir::IterVar& iv : op->axis) Define(iv->var);
    ir::Visitor::VisitExpr_(op);
  }
  void VisitStmt_(const ir::LetStmtNode* op) override {
    VisitExpr(op->value);
    Define(op->var);
    VisitStmt(op->body);
  }
  void VisitStmt_(const ir::AttrStmtNode* op) override {
    if (const auto* iv = std::get_if<ir::IterVar>(&op->node)) Define((*iv)->var);
    ir::Visitor::VisitStmt_(op);
  }
  void VisitStmt_(const ir::StoreNode* op) override {
    Use(op->buffer_var);
    ir::Visitor::VisitStmt_(op);
  }
  void VisitStmt_(const ir::AllocateNode* op) override {
    for (const ir::Expr& e : op->extents) VisitExpr(e);
    Define(op->buffer_var);
    VisitStmt(op->body);
  }
  void VisitStmt_(const ir::ForNode* op) override {
    VisitExpr(op->min);
    VisitExpr(op->extent);
    Define(op->loop_var);
    VisitStmt(op->body);
  }

 private:
  void Define(const ir::Var& v) { defined_.insert(v.get()); }
  void Use(const ir::Var& v) {
    if (defined_.count(v.get()) || !seen_.insert(v.get()).second) return;
    free.push_back(v);
  }

  std::unordered_set<const ir::VarNode*> defined_;
  std::unordered_set<const ir::VarNode*> seen_;
};

}  // namespace

std::vector<ir::Var> FreeVars(const ir::Stmt& s) {
  FreeVarCollector c;
  c.VisitStmt(s);
  return std::move(c.free);
}

}  // namespace tunefarm::codegen
