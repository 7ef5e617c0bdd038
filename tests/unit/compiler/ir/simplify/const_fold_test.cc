#include "compiler/ir/simplify/const_fold.h"

#include <cmath>
#include <gtest/gtest.h>
#include <limits>

#include "compiler/ir/structural_equal.h"

namespace tunefarm::arith {
namespace {

using ir::DataType;
using ir::Expr;
using ir::ExprKind;

Expr I(DataType t, int64_t v) { return ir::IntImm(t, v); }
Expr F(DataType t, double v) { return ir::FloatImm(t, v); }

void ExpectFold(ExprKind kind, const Expr& a, const Expr& b, const Expr& expected) {
  Expr got = FoldBinary(kind, a, b);
  ASSERT_TRUE(got.defined()) << "did not fold";
  EXPECT_TRUE(ir::StructuralEqual(got, expected));
}

TEST(ConstFoldTest, IntegersWrapAtTheirWidth) {
  DataType i8 = DataType::Int(8), u16 = DataType::UInt(16), i64 = DataType::Int(64);
  ExpectFold(ExprKind::kAdd, I(i8, 127), I(i8, 1), I(i8, -128));
  ExpectFold(ExprKind::kMul, I(i8, 16), I(i8, 16), I(i8, 0));
  ExpectFold(ExprKind::kSub, I(u16, 0), I(u16, 1), I(u16, 65535));
  ExpectFold(ExprKind::kMul, I(i64, int64_t{1} << 62), I(i64, 4), I(i64, 0));
  ExpectFold(ExprKind::kDiv, I(i8, -128), I(i8, -1), I(i8, -128));
  ExpectFold(ExprKind::kMod, I(i64, std::numeric_limits<int64_t>::min()), I(i64, -1), I(i64, 0));
}

TEST(ConstFoldTest, DivisionSemantics) {
  DataType i32 = DataType::Int(32), u64 = DataType::UInt(64);
  ExpectFold(ExprKind::kDiv, I(i32, -7), I(i32, 2), I(i32, -3));
  ExpectFold(ExprKind::kMod, I(i32, -7), I(i32, 2), I(i32, -1));
  ExpectFold(ExprKind::kFloorDiv, I(i32, -7), I(i32, 2), I(i32, -4));
  ExpectFold(ExprKind::kFloorMod, I(i32, -7), I(i32, 2), I(i32, 1));
  ExpectFold(ExprKind::kFloorMod, I(i32, 7), I(i32, -2), I(i32, -1));
  // uint64 values above INT64_MAX are divided as unsigned.
  ExpectFold(ExprKind::kDiv, I(u64, -2), I(u64, 2), I(u64, std::numeric_limits<int64_t>::max()));
  ExpectFold(ExprKind::kLT, I(u64, 1), I(u64, -1), ir::IntImm(DataType::Bool(), 1));
  EXPECT_FALSE(FoldBinary(ExprKind::kDiv, I(i32, 1), I(i32, 0)).defined());
  EXPECT_FALSE(FoldBinary(ExprKind::kFloorMod, I(i32, 1), I(i32, 0)).defined());
}

TEST(ConstFoldTest, Floats) {
  DataType f32 = DataType::Float(32), f64 = DataType::Float(64);
  ExpectFold(ExprKind::kAdd, F(f32, 0.1), F(f32, 0.2), F(f32, 0.1f + 0.2f));
  ExpectFold(ExprKind::kAdd, F(f64, 0.1), F(f64, 0.2), F(f64, 0.1 + 0.2));
  ExpectFold(ExprKind::kDiv, F(f32, 1.0), F(f32, 3.0), F(f32, 1.0f / 3.0f));
  ExpectFold(ExprKind::kFloorDiv, F(f64, -7.0), F(f64, 2.0), F(f64, -4.0));
  ExpectFold(ExprKind::kMod, F(f64, -7.5), F(f64, 2.0), F(f64, -1.5));
  ExpectFold(ExprKind::kMax, F(f32, -1.0), F(f32, 2.0), F(f32, 2.0));
  ExpectFold(ExprKind::kLE, F(f32, 2.0), F(f32, 2.0), ir::IntImm(DataType::Bool(), 1));
  double nan = std::numeric_limits<double>::quiet_NaN();
  ExpectFold(ExprKind::kEQ, F(f64, nan), F(f64, nan), ir::IntImm(DataType::Bool(), 0));
  EXPECT_FALSE(FoldBinary(ExprKind::kMin, F(f64, nan), F(f64, 1.0)).defined());
  EXPECT_FALSE(FoldBinary(ExprKind::kDiv, F(f32, 1.0), F(f32, 0.0)).defined());
  EXPECT_FALSE(
      FoldBinary(ExprKind::kAdd, F(DataType::Float(16), 1), F(DataType::Float(16), 1)).defined());
}

TEST(ConstFoldTest, BoolsNotAndCasts) {
  DataType b = DataType::Bool();
  ExpectFold(ExprKind::kAnd, I(b, 1), I(b, 0), I(b, 0));
  ExpectFold(ExprKind::kOr, I(b, 1), I(b, 0), I(b, 1));
  ExpectFold(ExprKind::kNE, I(b, 1), I(b, 0), I(b, 1));
  EXPECT_TRUE(ir::StructuralEqual(FoldNot(I(b, 0)), I(b, 1)));
  EXPECT_TRUE(ir::StructuralEqual(FoldCast(DataType::UInt(8), I(DataType::Int(32), -1)),
                                  I(DataType::UInt(8), 255)));
  EXPECT_TRUE(ir::StructuralEqual(FoldCast(b, I(DataType::Int(32), 7)), I(b, 1)));
  EXPECT_TRUE(ir::StructuralEqual(FoldCast(DataType::Float(32), I(DataType::Int(64), 16777217)),
                                  F(DataType::Float(32), 16777216.0)));
  EXPECT_TRUE(ir::StructuralEqual(FoldCast(DataType::Int(8), F(DataType::Float(32), -3.9)),
                                  I(DataType::Int(8), -3)));
  EXPECT_FALSE(FoldCast(DataType::Int(8), F(DataType::Float(32), 300.0)).defined());
  EXPECT_FALSE(FoldCast(DataType::Int(32), ir::Var("x")).defined());
}

}  // namespace
}  // namespace tunefarm::arith
