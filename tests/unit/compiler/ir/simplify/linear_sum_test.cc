#include "compiler/ir/simplify/linear_sum.h"

#include <gtest/gtest.h>

#include "compiler/ir/op.h"
#include "compiler/ir/printer.h"
#include "compiler/ir/structural_equal.h"

namespace tunefarm::arith {
namespace {

using ir::DataType;
using ir::Expr;
using ir::Var;

TEST(LinearSumTest, FlattensAndCombines) {
  Var x("x"), y("y");
  LinearSum s =
      LinearSum::FromExpr(ir::SubNode::Make(ir::MulNode::Make(ir::AddNode::Make(x, y), 3), x));
  ASSERT_EQ(s.terms().size(), 2u);
  EXPECT_EQ(s.CoeffOf(x), 2);
  EXPECT_EQ(s.CoeffOf(y), 3);
  EXPECT_EQ(s.constant(), 0);
  s.AddExpr(y, -3);
  s.AddConst(5);
  EXPECT_EQ(s.CoeffOf(y), 0);
  EXPECT_TRUE(ir::StructuralEqual(s.ToExpr(), ir::AddNode::Make(ir::MulNode::Make(x, 2), 5)));
}

TEST(LinearSumTest, RendersSigns) {
  Var x("x"), y("y");
  LinearSum s(DataType::Int(32));
  s.AddTerm(y, -2);
  s.AddTerm(x, 1);
  s.AddConst(-4);
  EXPECT_EQ(ir::ToString(s.ToExpr()), "x - y*2 - 4");
  LinearSum neg(DataType::Int(32));
  neg.AddTerm(x, -1);
  neg.AddConst(7);
  EXPECT_EQ(ir::ToString(neg.ToExpr()), "7 - x");
  LinearSum zero(DataType::Int(32));
  EXPECT_TRUE(ir::IsConstInt(zero.ToExpr(), 0));
}

TEST(LinearSumTest, WrapsAtTheTypeWidth) {
  DataType u8 = DataType::UInt(8);
  Var u("u", u8);
  LinearSum s(u8);
  s.AddTerm(u, 200);
  s.AddTerm(u, 100);  // 300 == 44 (mod 256)
  s.AddConst(255);    // reads as -1
  EXPECT_EQ(s.CoeffOf(u), 44);
  Expr e = s.ToExpr();
  EXPECT_EQ(e.dtype(), u8);
  EXPECT_EQ(ir::ToString(e), "u*(uint8)44 - (uint8)1");
  DataType i32 = DataType::Int(32);
  LinearSum m(i32);
  m.AddTerm(Var("x"), -2147483648LL);  // no positive counterpart at 32 bits: kept as is
  EXPECT_EQ(m.ToExpr().kind(), ir::ExprKind::kMul);
}

TEST(LinearSumTest, MatchesBinaryOnlyForItsOwnRendering) {
  Var x("x"), y("y");
  // Every binary node that ToExpr() builds matches the sum it came from.
  for (Expr e : {x * 4 + y - 3, y - x * 4, 7 - x, x * 4, x * 2 - y * 3 + 1}) {
    LinearSum s = LinearSum::FromExpr(e);
    Expr r = s.ToExpr();
    auto k = r.kind();
    auto ops = [&]() -> std::pair<Expr, Expr> {
      if (const auto* n = r.As<ir::AddNode>()) return {n->a, n->b};
      if (const auto* n = r.As<ir::SubNode>()) return {n->a, n->b};
      const auto* n = r.As<ir::MulNode>();
      return {n->a, n->b};
    }();
    EXPECT_TRUE(s.MatchesBinary(k, ops.first, ops.second)) << ir::ToString(r);
  }
  // Forms that ToExpr() would rewrite do not match.
  LinearSum s = LinearSum::FromExpr(ir::AddNode::Make(ir::AddNode::Make(x, 1), y));
  EXPECT_FALSE(s.MatchesBinary(ir::ExprKind::kAdd, ir::AddNode::Make(x, 1), y));
  LinearSum t = LinearSum::FromExpr(ir::SubNode::Make(x, ir::MulNode::Make(y, -2)));
  EXPECT_FALSE(t.MatchesBinary(ir::ExprKind::kSub, x, ir::MulNode::Make(y, -2)));
  LinearSum u = LinearSum::FromExpr(ir::AddNode::Make(x, 0));
  EXPECT_FALSE(u.MatchesBinary(ir::ExprKind::kAdd, x, Expr(0)));
}

}  // namespace
}  // namespace tunefarm::arith
