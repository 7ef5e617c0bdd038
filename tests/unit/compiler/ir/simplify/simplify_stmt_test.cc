// The statement simplifier: scoped knowledge from loops, lets, thread extents and branches, and
// removal of dead statements.
#include <gtest/gtest.h>

#include "compiler/ir/op.h"
#include "compiler/ir/printer.h"
#include "compiler/ir/simplify/simplify.h"
#include "compiler/ir/structural_equal.h"

namespace tunefarm::arith {
namespace {

using ir::DataType;
using ir::Expr;
using ir::ForKind;
using ir::Stmt;
using ir::Var;

class SimplifyStmtTest : public ::testing::Test {
 protected:
  Stmt StoreA(Expr index, Expr value = 1) { return ir::StoreNode::Make(a_, value, index); }
  Stmt Loop(Var v, Expr min, Expr extent, Stmt body, ForKind kind = ForKind::kSerial) {
    return ir::ForNode::Make(v, min, extent, kind, body);
  }
  void ExpectStmt(const Stmt& before, const Stmt& after) {
    Stmt got = SimplifyStmt(before);
    EXPECT_TRUE(ir::StructuralEqual(got, after)) << "simplify of\n"
                                                 << before << "gave\n"
                                                 << got << "expected\n"
                                                 << after;
  }

  Var a_{"A", DataType::Handle()};
};

TEST_F(SimplifyStmtTest, LoopBoundsDecideGuards) {
  Var i("i"), n("n");
  Stmt guarded = ir::IfThenElseNode::Make(ir::Likely(i < 16), StoreA(i));
  ExpectStmt(Loop(i, 0, 16, guarded), Loop(i, 0, 16, StoreA(i)));
  // A symbolic extent proves i < n but not i < 16.
  Stmt symbolic = ir::IfThenElseNode::Make(ir::Likely(i < n), StoreA(i));
  ExpectStmt(Loop(i, 0, n, symbolic), Loop(i, 0, n, StoreA(i)));
  ExpectStmt(Loop(i, 0, n, guarded), Loop(i, 0, n, guarded));
  // Split of 100 by 32: the guard stays in the last, partial tile.
  Var xo("xo"), xi("xi");
  Expr idx = xo * 32 + xi;
  Stmt tail = ir::IfThenElseNode::Make(ir::Likely(idx < 100), StoreA(idx));
  Stmt nest = Loop(xo, 0, 4, Loop(xi, 0, 32, tail));
  ExpectStmt(nest, nest);
}

// Regression (random schedule test): a guard on a symbolic extent once made a wrapped bound
// prove an inner loop empty, and the whole nest was removed.
TEST_F(SimplifyStmtTest, SplitGuardsOnSymbolicExtentsKeepTheNest) {
  Var n("n"), io("io"), ii("ii"), j("j");
  Stmt inner = Loop(j, 0, ir::FloorDiv(n + 2, 3), StoreA((io * 2 + ii) * n + j));
  Stmt nest = Loop(io, 0, ir::FloorDiv(n + 1, 2),
                   Loop(ii, 0, 2, ir::IfThenElseNode::Make(ir::Likely(io * 2 + ii < n), inner)),
                   ForKind::kParallel);
  ExpectStmt(nest, nest);
}

TEST_F(SimplifyStmtTest, RemovesEmptyAndSingleIterationLoops) {
  Var i("i"), j("j"), n("n");
  ExpectStmt(Loop(i, 0, 0, StoreA(i)), ir::MakeNop());
  ExpectStmt(Loop(i, 3, 1, StoreA(i * 2)), StoreA(6));
  ExpectStmt(Loop(i, n, 1, StoreA(i), ForKind::kParallel), StoreA(n));
  ExpectStmt(Loop(i, 0, n - n + 1, StoreA(i), ForKind::kVectorized), StoreA(0));
  ExpectStmt(Loop(i, 0, 8, Loop(j, 0, 0, StoreA(j))), ir::MakeNop());
  // A thread-bound loop is a hardware index, kept even for one iteration.
  Stmt bound = ir::ForNode::Make(i, 0, 1, ForKind::kThreadBinding, StoreA(i), "threadIdx.x");
  ExpectStmt(bound, bound);
}

TEST_F(SimplifyStmtTest, BranchesAssumeTheirCondition) {
  Var x("x");
  Stmt s = ir::IfThenElseNode::Make(x < 8, StoreA(ir::Min(x, 10)), StoreA(ir::Max(x, 7)));
  ExpectStmt(s, ir::IfThenElseNode::Make(x < 8, StoreA(x), StoreA(x)));
  ExpectStmt(ir::IfThenElseNode::Make(x < x + 1, StoreA(1), StoreA(2)), StoreA(1));
  ExpectStmt(ir::IfThenElseNode::Make(x > x, StoreA(1)), ir::MakeNop());
  // An empty then-branch flips the condition onto the else branch.
  Stmt flipped = ir::IfThenElseNode::Make(x < 8, ir::MakeNop(), StoreA(2));
  ExpectStmt(flipped, ir::IfThenElseNode::Make(ir::LENode::Make(8, x), StoreA(2)));
}

TEST_F(SimplifyStmtTest, LetsAndAsserts) {
  Var x("x"), t("t"), u("u");
  ExpectStmt(ir::LetStmtNode::Make(t, 5, StoreA(t + x)), StoreA(x + 5));
  ExpectStmt(ir::LetStmtNode::Make(t, x * 3, StoreA(x)), StoreA(x));
  Var i("i");
  Stmt let = ir::LetStmtNode::Make(u, i * 4, ir::IfThenElseNode::Make(u < 64, StoreA(u)));
  ExpectStmt(Loop(i, 0, 16, let), Loop(i, 0, 16, ir::LetStmtNode::Make(u, i * 4, StoreA(u))));
  ExpectStmt(ir::AssertStmtNode::Make(x < x + 1, "ok", StoreA(x)), StoreA(x));
  Stmt asserted = ir::AssertStmtNode::Make(x < 4, "small", StoreA(ir::Min(x, 9)));
  ExpectStmt(asserted, ir::AssertStmtNode::Make(x < 4, "small", StoreA(x)));
}

TEST_F(SimplifyStmtTest, ThreadExtentBindsTheThreadIndex) {
  Var tx("tx");
  ir::IterVar iv(ir::Range{0, 32}, tx, ir::IterVarType::kThreadIndex, "threadIdx.x");
  Stmt body = ir::IfThenElseNode::Make(tx < 32, StoreA(tx));
  Stmt attr = ir::AttrStmtNode::Make(iv, ir::attr::kThreadExtent, 32, body);
  ExpectStmt(attr, ir::AttrStmtNode::Make(iv, ir::attr::kThreadExtent, 32, StoreA(tx)));
}

TEST_F(SimplifyStmtTest, SimplifiesEveryExpression) {
  Var x("x"), n("n");
  Expr messy = x + 2 - 2;
  ir::Buffer b("B", DataType::Float(32), {n});
  Stmt realize = ir::BufferRealizeNode::Make(
      b, {ir::Range{n - n, n * 2 - n}},
      ir::BufferStoreNode::Make(b, ir::FloatImm(DataType::Float(32), 1), {messy}));
  Stmt alloc = ir::AllocateNode::Make(
      a_, DataType::Float(32), {n * 4 - n * 2}, "global",
      ir::AttrStmtNode::Make(std::monostate{}, "pragma_x", messy, StoreA(messy, messy)));
  ExpectStmt(ir::SeqStmtNode::Make({realize, alloc}),
             ir::SeqStmtNode::Make(
                 {ir::BufferRealizeNode::Make(
                      b, {ir::Range{0, n}},
                      ir::BufferStoreNode::Make(b, ir::FloatImm(DataType::Float(32), 1), {x})),
                  ir::AllocateNode::Make(
                      a_, DataType::Float(32), {n * 2}, "global",
                      ir::AttrStmtNode::Make(std::monostate{}, "pragma_x", x, StoreA(x, x)))}));
}

TEST_F(SimplifyStmtTest, KeepsUnchangedStatementsShared) {
  Var i("i");
  Stmt s = Loop(i, 0, 8, StoreA(i * 2));
  EXPECT_TRUE(SimplifyStmt(s).same_as(s));
}

}  // namespace
}  // namespace tunefarm::arith
