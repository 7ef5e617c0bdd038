#include "compiler/ir/printer.h"

#include <gtest/gtest.h>

#include "compiler/ir/op.h"
#include "compiler/ir/structural_equal.h"

namespace tunefarm::ir {
namespace {

TEST(PrinterTest, PrintsLoopNestWithGuard) {
  Var i("i"), n("n");
  Buffer c("C", DataType::Float(32), {n});
  Stmt store = BufferStoreNode::Make(c, FloatImm(DataType::Float(32), 1.5), {i});
  Stmt guarded = IfThenElseNode::Make(Likely(i < n), store);
  Stmt loop = ForNode::Make(i, 0, 16, ForKind::kParallel, guarded);
  EXPECT_EQ(ToString(loop),
            "parallel (i, 0, 16) {\n"
            "  if (likely(i < n)) {\n"
            "    C[i] = 1.5f\n"
            "  }\n"
            "}\n");
}

TEST(PrinterTest, ParenthesizesOnlyWherePrecedenceNeedsIt) {
  Var a("a"), b("b"), c("c");
  EXPECT_EQ(ToString((a + b) * c), "(a + b)*c");
  EXPECT_EQ(ToString(a + b * c), "a + b*c");
  EXPECT_EQ(ToString(a - (b - c)), "a - (b - c)");
  EXPECT_EQ(ToString(FloorDiv(a, 4)), "floordiv(a, 4)");
}

TEST(StructuralEqualTest, RenamedLoopsAreEqual) {
  Var i("i"), j("j");
  Buffer c("C", DataType::Int(32), {8});
  Stmt l1 = ForNode::Make(i, 0, 8, ForKind::kSerial, BufferStoreNode::Make(c, i * 2, {i}));
  Stmt l2 = ForNode::Make(j, 0, 8, ForKind::kSerial, BufferStoreNode::Make(c, j * 2, {j}));
  Stmt l3 = ForNode::Make(j, 0, 8, ForKind::kSerial, BufferStoreNode::Make(c, j * 3, {j}));
  EXPECT_TRUE(StructuralEqual(l1, l2));
  EXPECT_EQ(StructuralHash(l1), StructuralHash(l2));
  EXPECT_FALSE(StructuralEqual(l1, l3));
}

TEST(StructuralEqualTest, FreeVariablesMatchOnlyWhenAsked) {
  Var x("x"), y("y");
  EXPECT_FALSE(StructuralEqual(x + 1, y + 1));
  EXPECT_TRUE(StructuralEqual(x + 1, y + 1, /*map_free_vars=*/true));
}

TEST(OpTest, PromotesIntToFloatAndFoldsConstants) {
  Var x("x", DataType::Float(32));
  Expr e = x + 1;
  EXPECT_EQ(e.dtype(), DataType::Float(32));
  EXPECT_TRUE(IsConstInt(Expr(4) * 8, 32));
  EXPECT_TRUE(IsConstInt(FloorDiv(-7, 2), -4));
  EXPECT_TRUE(IsConstInt(FloorMod(-7, 2), 1));
  EXPECT_TRUE(IsConstInt(TruncMod(-7, 2), -1));
}

TEST(TypeTest, ParsesAndPrints) {
  EXPECT_EQ(DataType::Parse("float32x4"), DataType::Float(32, 4));
  EXPECT_EQ(DataType::Parse("bool"), DataType::Bool());
  EXPECT_FALSE(DataType::Parse("float7").has_value());
  EXPECT_EQ(DataType::Int(8, 16).ToString(), "int8x16");
}

}  // namespace
}  // namespace tunefarm::ir
