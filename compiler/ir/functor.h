// ExprFunctor / StmtFunctor: typed dispatch on node kind for analyses that return a value.
#pragma once

#include "compiler/ir/check.h"
#include "compiler/ir/expr.h"
#include "compiler/ir/stmt.h"

namespace tunefarm::ir {

template <typename F>
class ExprFunctor;

// Subclasses override `VisitExpr_(const XNode*, Args...)` for the kinds they handle; any other
// kind reaches `VisitExprDefault_`, which aborts unless overridden.
template <typename R, typename... Args>
class ExprFunctor<R(const Expr&, Args...)> {
 public:
  virtual ~ExprFunctor() = default;
  virtual R VisitExpr(const Expr& e, Args... args) {
    switch (e.kind()) {
#define TF_DISPATCH(Name) \
  case ExprKind::k##Name: \
    return VisitExpr_(static_cast<const Name##Node*>(e.get()), args...);
      TF_IR_EXPR_NODES(TF_DISPATCH)
#undef TF_DISPATCH
    }
    TF_UNREACHABLE();
  }

 protected:
#define TF_DECLARE_VISIT(Name)                               \
  virtual R VisitExpr_(const Name##Node* op, Args... args) { \
    return VisitExprDefault_(op, args...);                   \
  }
  TF_IR_EXPR_NODES(TF_DECLARE_VISIT)
#undef TF_DECLARE_VISIT
  virtual R VisitExprDefault_(const ExprNode* op, Args...) {
    TF_UNREACHABLE() << "ExprFunctor does not handle expression kind "
                     << static_cast<int>(op->kind);
  }
};

template <typename F>
class StmtFunctor;

template <typename R, typename... Args>
class StmtFunctor<R(const Stmt&, Args...)> {
 public:
  virtual ~StmtFunctor() = default;
  virtual R VisitStmt(const Stmt& s, Args... args) {
    switch (s.kind()) {
#define TF_DISPATCH(Name) \
  case StmtKind::k##Name: \
    return VisitStmt_(static_cast<const Name##Node*>(s.get()), args...);
      TF_IR_STMT_NODES(TF_DISPATCH)
#undef TF_DISPATCH
    }
    TF_UNREACHABLE();
  }

 protected:
#define TF_DECLARE_VISIT(Name)                               \
  virtual R VisitStmt_(const Name##Node* op, Args... args) { \
    return VisitStmtDefault_(op, args...);                   \
  }
  TF_IR_STMT_NODES(TF_DECLARE_VISIT)
#undef TF_DECLARE_VISIT
  virtual R VisitStmtDefault_(const StmtNode* op, Args...) {
    TF_UNREACHABLE() << "StmtFunctor does not handle statement kind " << static_cast<int>(op->kind);
  }
};

}  // namespace tunefarm::ir
