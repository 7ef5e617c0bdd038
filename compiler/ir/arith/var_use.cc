#include "compiler/ir/arith/var_use.h"

#include "compiler/ir/visitor.h"

namespace tunefarm::arith {
namespace {

// Stops descending once a match is found.
class VarFinder : public ir::Visitor {
 public:
  explicit VarFinder(const std::function<bool(const ir::VarNode*)>& pred) : pred_(pred) {}
  bool found() const { return found_; }

  void VisitExpr(const ir::Expr& e) override {
    if (!found_) Visitor::VisitExpr(e);
  }
  void VisitStmt(const ir::Stmt& s) override {
    if (!found_) Visitor::VisitStmt(s);
  }

 protected:
  void VisitExpr_(const ir::VarNode* op) override { Check(op); }
  void VisitExpr_(const ir::LoadNode* op) override {
    Check(op->buffer_var.get());
    Visitor::VisitExpr_(op);
  }
  void VisitStmt_(const ir::StoreNode* op) override {
    Check(op->buffer_var.get());
    Visitor::VisitStmt_(op);
  }
  void VisitExpr_(const ir::BufferLoadNode* op) override {
    Check(op->buffer->data.get());
    Visitor::VisitExpr_(op);
  }
  void VisitStmt_(const ir::BufferStoreNode* op) override {
    Check(op->buffer->data.get());
    Visitor::VisitStmt_(op);
  }
  void VisitStmt_(const ir::AttrStmtNode* op) override {
    if (const auto* v = std::get_if<ir::Var>(&op->node)) Check(v->get());
    Visitor::VisitStmt_(op);
  }

 private:
  void Check(const ir::VarNode* v) { found_ = found_ || pred_(v); }

  const std::function<bool(const ir::VarNode*)>& pred_;
  bool found_ = false;
};

}  // namespace

bool UsesVar(const ir::Expr& e, const std::function<bool(const ir::VarNode*)>& pred) {
  VarFinder finder(pred);
  finder.VisitExpr(e);
  return finder.found();
}

bool UsesVar(const ir::Stmt& s, const std::function<bool(const ir::VarNode*)>& pred) {
  VarFinder finder(pred);
  finder.VisitStmt(s);
  return finder.found();
}

bool UsesVar(const ir::Expr& e, const ir::VarNode* v) {
  return UsesVar(e, [v](const ir::VarNode* x) { return x == v; });
}

bool UsesVar(const ir::Stmt& s, const ir::VarNode* v) {
  return UsesVar(s, [v](const ir::VarNode* x) { return x == v; });
}

}  // namespace tunefarm::arith
