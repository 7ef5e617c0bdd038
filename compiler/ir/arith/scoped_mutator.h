// ScopedMutator: a Mutator that keeps an Analyzer in step with the scopes it walks through, so a
// pass can ask about the loop variables and conditions around the node it rewrites (as TVM's
// IRMutatorWithAnalyzer). Loop ranges, lets, thread extents, `if` conditions (negated in the
// else branch) and asserted conditions are bound on entry and dropped on exit.
#pragma once

#include "compiler/ir/arith/analyzer.h"
#include "compiler/ir/mutator.h"

namespace tunefarm::arith {

class ScopedMutator : public ir::Mutator {
 public:
  explicit ScopedMutator(Analyzer* analyzer) : analyzer_(analyzer) {}

 protected:
  using Mutator::VisitExpr_;
  using Mutator::VisitStmt_;
  ir::Stmt VisitStmt_(const ir::ForNode* op) override;
  ir::Stmt VisitStmt_(const ir::LetStmtNode* op) override;
  ir::Stmt VisitStmt_(const ir::AttrStmtNode* op) override;
  ir::Stmt VisitStmt_(const ir::IfThenElseNode* op) override;
  ir::Stmt VisitStmt_(const ir::AssertStmtNode* op) override;

  Analyzer* analyzer_;
};

}  // namespace tunefarm::arith
