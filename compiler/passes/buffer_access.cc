#include "compiler/passes/buffer_access.h"

#include "compiler/ir/visitor.h"

namespace tunefarm::passes {
namespace {

class AccessCollector : public ir::Visitor {
 public:
  BufferAccess access;

 protected:
  void VisitExpr_(const ir::LoadNode* op) override {
    access.reads.insert(op->buffer_var.get());
    ir::Visitor::VisitExpr_(op);
  }
  void VisitStmt_(const ir::StoreNode* op) override {
    access.writes.insert(op->buffer_var.get());
    ir::Visitor::VisitStmt_(op);
  }
};

// Stops at the first use; the flag makes the remaining walk cheap rather than cut short.
class VarUseFinder : public ir::Visitor {
 public:
  explicit VarUseFinder(const VarSet& vars) : vars_(vars) {}
  bool found = false;

  void VisitExpr(const ir::Expr& e) override {
    if (!found) ir::Visitor::VisitExpr(e);
  }
  void VisitStmt(const ir::Stmt& s) override {
    if (!found) ir::Visitor::VisitStmt(s);
  }

 protected:
  void VisitExpr_(const ir::VarNode* op) override { found = found || vars_.count(op) > 0; }

 private:
  const VarSet& vars_;
};

class ScopeCollector : public ir::Visitor {
 public:
  std::unordered_map<const ir::VarNode*, std::string> scopes;

 protected:
  void VisitStmt_(const ir::AllocateNode* op) override {
    scopes[op->buffer_var.get()] = op->scope;
    ir::Visitor::VisitStmt_(op);
  }
};

}  // namespace

BufferAccess CollectAccess(const ir::Stmt& s) {
  AccessCollector collector;
  collector.VisitStmt(s);
  return std::move(collector.access);
}

bool UsesAnyVar(const ir::Expr& e, const VarSet& vars) {
  if (vars.empty()) return false;
  VarUseFinder finder(vars);
  finder.VisitExpr(e);
  return finder.found;
}

bool UsesAnyVar(const ir::Stmt& s, const VarSet& vars) {
  if (vars.empty()) return false;
  VarUseFinder finder(vars);
  finder.VisitStmt(s);
  return finder.found;
}

std::unordered_map<const ir::VarNode*, std::string> AllocationScopes(const ir::Stmt& s) {
  ScopeCollector collector;
  collector.VisitStmt(s);
  return std::move(collector.scopes);
}

}  // namespace tunefarm::passes
