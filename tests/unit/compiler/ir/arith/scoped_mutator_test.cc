#include "compiler/ir/arith/scoped_mutator.h"

#include <gtest/gtest.h>

#include "compiler/ir/op.h"

namespace tunefarm::arith {
namespace {

using ir::Expr;
using ir::Stmt;
using ir::Var;

// Records, at each store, whether its index is provably below 16 in the current scope.
class ProbeMutator : public ScopedMutator {
 public:
  using ScopedMutator::ScopedMutator;
  std::vector<bool> proven;

 protected:
  Stmt VisitStmt_(const ir::StoreNode* op) override {
    proven.push_back(analyzer_->CanProve(op->index < 16));
    return ScopedMutator::VisitStmt_(op);
  }
};

TEST(ScopedMutatorTest, BindsLoopsLetsBranchesAndThreads) {
  Var a("A", ir::DataType::Handle()), i("i"), t("t"), x("x"), tx("tx");
  auto store = [&](Expr index) { return ir::StoreNode::Make(a, 0, index); };
  ir::IterVar thread(ir::Range{0, 16}, tx, ir::IterVarType::kThreadIndex, "threadIdx.x");
  Stmt body = ir::SeqStmtNode::Make({
      ir::ForNode::Make(i, 0, 16, ir::ForKind::kSerial, store(i)),
      ir::ForNode::Make(i, 0, 16, ir::ForKind::kSerial, ir::LetStmtNode::Make(t, i + 1, store(t))),
      ir::IfThenElseNode::Make(x < 16, store(x), store(x)),
      ir::AttrStmtNode::Make(thread, ir::attr::kThreadExtent, 16, store(tx)),
      ir::AssertStmtNode::Make(x < 3, "small", store(x)),
      store(i),
  });
  Analyzer analyzer;
  ProbeMutator probe(&analyzer);
  Stmt out = probe.VisitStmt(body);
  EXPECT_TRUE(out.same_as(body));
  EXPECT_EQ(probe.proven, (std::vector<bool>{true, false, true, false, true, true, false}));
}

}  // namespace
}  // namespace tunefarm::arith
