#include "compiler/passes/remove_no_op.h"

#include <gtest/gtest.h>

#include "compiler/ir/printer.h"
#include "tests/unit/compiler/ir_types.h"
#include "tests/unit/compiler/passes/test_kernels.h"

namespace tunefarm::passes {
namespace {

using namespace ir;               // NOLINT: tests build IR by hand.
using namespace passes::testing;  // NOLINT

using ir_fixtures::kF32;

std::string Cleaned(Stmt body, std::vector<Buffer> params) {
  auto f = RemoveNoOp(PrimFunc{"f", std::move(params), std::move(body)});
  EXPECT_TRUE(f.ok()) << f.status();
  return f.ok() ? ToString(f->body) : "";
}

TEST(RemoveNoOpTest, DropsStatementsThatDoNothing) {
  Buffer c("C", kF32, {8});
  Var i("i"), j("j"), x("x"), t("t", DataType::Handle()), n("n");
  Stmt store = FlatStore(c, 1.0f, 0);
  Stmt body = Seq({
      EvaluateNode::Make(FloatImm(kF32, 2.0)),
      Loop(i, 4, EvaluateNode::Make(0)),
      Loop(j, 0, store),
      IfThenElseNode::Make(n > 0, MakeNop(), MakeNop()),
      IfThenElseNode::Make(IntImm(DataType::Bool(), 0), store),
      AllocateNode::Make(t, kF32, {4}, "local", FlatStore(c, 2.0f, 1)),
      LetStmtNode::Make(x, n * 2, FlatStore(c, 3.0f, 2)),
      AttrStmtNode::Make(c, attr::kProduce, Expr(), MakeNop()),
  });
  EXPECT_EQ(Cleaned(body, {c}),
            "C[1] = 2.0f\n"
            "C[2] = 3.0f\n");
}

TEST(RemoveNoOpTest, KeepsWorkAndFlipsBranchesWithAnEmptyThenCase) {
  Buffer c("C", kF32, {8});
  Var x("x"), n("n"), t("t", DataType::Handle());
  Stmt body = Seq({
      IfThenElseNode::Make(n > 0, MakeNop(), FlatStore(c, 1.0f, 0)),
      IfThenElseNode::Make(IntImm(DataType::Bool(), 1), FlatStore(c, 2.0f, 1),
                           FlatStore(c, 0.0f, 1)),
      LetStmtNode::Make(x, n * 2, FlatStore(c, 3.0f, x)),
      AllocateNode::Make(
          t, kF32, {4}, "local",
          Seq({StoreNode::Make(t, 1.0f, 0), FlatStore(c, LoadNode::Make(kF32, t, 0), 3)})),
  });
  EXPECT_EQ(Cleaned(body, {c}),
            "if (!(n > 0)) {\n"
            "  C[0] = 1.0f\n"
            "}\n"
            "C[1] = 2.0f\n"
            "let x = n*2\n"
            "C[x] = 3.0f\n"
            "allocate t[float32 * 4], scope local\n"
            "t[0] = 1.0f\n"
            "C[3] = t[0]\n");
}

}  // namespace
}  // namespace tunefarm::passes
