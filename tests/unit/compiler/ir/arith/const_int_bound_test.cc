#include "compiler/ir/arith/const_int_bound.h"

#include <gtest/gtest.h>

#include "compiler/ir/op.h"

namespace tunefarm::arith {
namespace {

using ir::DataType;
using ir::Expr;
using ir::Var;

class ConstIntBoundTest : public ::testing::Test {
 protected:
  ConstIntBound Of(const Expr& e) { return EvalConstIntBound(e, vars_); }
  void Set(const Var& v, int64_t lo, int64_t hi) { vars_[v.get()] = {lo, hi}; }

  Var x_{"x"}, y_{"y"};
  ConstIntBoundMap vars_;
};

TEST_F(ConstIntBoundTest, ArithmeticOnBoundedVars) {
  Set(x_, 0, 7);
  Set(y_, -3, 4);
  EXPECT_EQ(Of(x_ + y_), (ConstIntBound{-3, 11}));
  EXPECT_EQ(Of(x_ - y_), (ConstIntBound{-4, 10}));
  EXPECT_EQ(Of(x_ * y_), (ConstIntBound{-21, 28}));
  EXPECT_EQ(Of(x_ * -2), (ConstIntBound{-14, 0}));
  EXPECT_EQ(Of(ir::Min(x_, y_)), (ConstIntBound{-3, 4}));
  EXPECT_EQ(Of(ir::Max(x_, y_)), (ConstIntBound{0, 7}));
  EXPECT_EQ(Of(ir::Select(x_ < 3, x_, y_)), (ConstIntBound{-3, 7}));
}

TEST_F(ConstIntBoundTest, DivisionAndModulo) {
  Set(x_, -9, 9);
  EXPECT_EQ(Of(ir::FloorDiv(x_, 4)), (ConstIntBound{-3, 2}));
  EXPECT_EQ(Of(ir::TruncDiv(x_, 4)), (ConstIntBound{-2, 2}));
  EXPECT_EQ(Of(ir::FloorMod(x_, 4)), (ConstIntBound{0, 3}));
  EXPECT_EQ(Of(ir::TruncMod(x_, 4)), (ConstIntBound{-3, 3}));
  EXPECT_EQ(Of(ir::FloorDiv(x_, -4)), (ConstIntBound{-3, 2}));
  Set(y_, 8, 11);
  // Within one period the remainder keeps its order.
  EXPECT_EQ(Of(ir::FloorMod(y_, 16)), (ConstIntBound{8, 11}));
  EXPECT_EQ(Of(ir::TruncMod(y_, 5)), (ConstIntBound{0, 4}));
  // A divisor range that may be zero bounds nothing beyond the type.
  EXPECT_EQ(Of(ir::FloorDiv(y_, x_)), ConstIntBound::OfType(DataType::Int(32)));
  Set(x_, 2, 4);
  EXPECT_EQ(Of(ir::FloorDiv(y_, x_)), (ConstIntBound{2, 5}));
}

TEST_F(ConstIntBoundTest, TypesAndCasts) {
  Var u("u", DataType::UInt(8)), w("w", DataType::Int(64));
  EXPECT_EQ(Of(u), (ConstIntBound{0, 255}));
  EXPECT_EQ(Of(x_), (ConstIntBound{-2147483648LL, 2147483647LL}));
  EXPECT_EQ(Of(w), ConstIntBound::Everything());
  EXPECT_EQ(Of(ir::Cast(DataType::Int(32), u)), (ConstIntBound{0, 255}));
  EXPECT_EQ(Of(ir::Cast(DataType::Int(8), x_)), (ConstIntBound{-128, 127}));
  // An unsigned difference may wrap, so nothing narrower than the type is claimed.
  EXPECT_EQ(Of(ir::SubNode::Make(u, ir::IntImm(DataType::UInt(8), 1))), (ConstIntBound{0, 255}));
  EXPECT_EQ(Of(x_ < 3), (ConstIntBound{0, 1}));
}

TEST_F(ConstIntBoundTest, UnboundedSidesSaturate) {
  Var a("a", DataType::Int(64));
  Expr big = ir::IntImm(DataType::Int(64), int64_t{1} << 62);
  ConstIntBound b = Of(ir::Max(a, big) * 4);
  EXPECT_EQ(b.max, kPosInf);
  EXPECT_EQ(b.min, kPosInf);  // (2^62)*4 saturates: the product exceeds int64.
  EXPECT_EQ(Of(ir::FloorMod(a, 10)), (ConstIntBound{0, 9}));
}

TEST_F(ConstIntBoundTest, LetAndVectors) {
  Set(x_, 1, 3);
  Var t("t");
  EXPECT_EQ(Of(ir::LetNode::Make(t, x_ * 10, t + 1)), (ConstIntBound{11, 31}));
  EXPECT_EQ(Of(ir::RampNode::Make(x_, 2, 4)), (ConstIntBound{1, 9}));
  EXPECT_EQ(Of(ir::BroadcastNode::Make(x_, 4)), (ConstIntBound{1, 3}));
}

}  // namespace
}  // namespace tunefarm::arith
