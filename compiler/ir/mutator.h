// Mutator: rebuilds expressions and statements bottom-up. A node none of whose children changed
// is returned as is, so sharing is kept and a pass that changed nothing is detectable.
#pragma once

#include <functional>
#include <unordered_map>

#include "compiler/ir/functor.h"

namespace tunefarm::ir {

class Mutator : public ExprFunctor<Expr(const Expr&)>, public StmtFunctor<Stmt(const Stmt&)> {
 public:
  using ExprFunctor::VisitExpr;
  using StmtFunctor::VisitStmt;

 protected:
#define TF_DECLARE_VISIT(Name) Expr VisitExpr_(const Name##Node* op) override;
  TF_IR_EXPR_NODES(TF_DECLARE_VISIT)
#undef TF_DECLARE_VISIT
#define TF_DECLARE_VISIT(Name) Stmt VisitStmt_(const Name##Node* op) override;
  TF_IR_STMT_NODES(TF_DECLARE_VISIT)
#undef TF_DECLARE_VISIT
  virtual Range VisitRange(const Range& r);
  // The node being visited as a handle, for returning it unchanged.
  Expr Self(const ExprNode* op) const;
  Stmt Self(const StmtNode* op) const;

 private:
  // Handles of the nodes on the visit stack, so unchanged nodes can be returned without a copy.
  mutable std::vector<Expr> expr_stack_;
  mutable std::vector<Stmt> stmt_stack_;

 public:
  Expr VisitExpr(const Expr& e) override;
  Stmt VisitStmt(const Stmt& s) override;
};

using VarMap = std::unordered_map<const VarNode*, Expr>;

// Replaces variables by expressions (capture is the caller's concern: bound variables are fresh).
Expr Substitute(const Expr& e, const VarMap& map);
Stmt Substitute(const Stmt& s, const VarMap& map);
// Rewrites every expression node that `f` maps to a defined result (pre-order: the result is not
// visited again); other nodes are rebuilt from their rewritten children.
Expr RewriteExpr(const Expr& e, const std::function<Expr(const Expr&)>& f);
Stmt RewriteExprsIn(const Stmt& s, const std::function<Expr(const Expr&)>& f);

}  // namespace tunefarm::ir
