// Visitor: walks every expression and statement, for analyses. Override the node kinds of
// interest and call the base method to keep recursing.
#pragma once

#include <functional>

#include "compiler/ir/functor.h"

namespace tunefarm::ir {

class Visitor : public ExprFunctor<void(const Expr&)>, public StmtFunctor<void(const Stmt&)> {
 public:
  using ExprFunctor::VisitExpr;
  using StmtFunctor::VisitStmt;

 protected:
#define TF_DECLARE_VISIT(Name) void VisitExpr_(const Name##Node* op) override;
  TF_IR_EXPR_NODES(TF_DECLARE_VISIT)
#undef TF_DECLARE_VISIT
#define TF_DECLARE_VISIT(Name) void VisitStmt_(const Name##Node* op) override;
  TF_IR_STMT_NODES(TF_DECLARE_VISIT)
#undef TF_DECLARE_VISIT
  // Reduce axes and realize bounds contain expressions too; analyses that care override these.
  virtual void VisitRange(const Range& r);
};

// Calls `f` on every expression node after its children, including those inside statements.
void PostOrderVisit(const Expr& e, const std::function<void(const Expr&)>& f);
void PostOrderVisit(const Stmt& s, const std::function<void(const Expr&)>& f);

}  // namespace tunefarm::ir
