// Constants, variables, Ramp, Broadcast, Select, Let and the intrinsics, including the laziness
// of if_then_else, which must be able to guard an out-of-bounds read.
#include "compiler/interp/expr_code.h"

#include <cmath>
#include <gtest/gtest.h>

#include "compiler/ir/op.h"
#include "tests/unit/compiler/interp/interp_fixtures.h"

namespace tunefarm::interp {
namespace {

using ir::DataType;
using ir::Expr;
using testing::Eval;
using testing::EvalScalar;
using testing::MakeArray;

Expr IntOf(int64_t v) { return ir::IntImm(DataType::Int(32), v); }
Expr FloatOf(double v) { return ir::FloatImm(DataType::Float(32), v); }
Expr Bool(bool v) { return ir::IntImm(DataType::Bool(), v); }

TEST(ExprTest, RampAndBroadcast) {
  auto r = Eval<int32_t>(ir::RampNode::Make(IntOf(10), IntOf(-3), 5));
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(*r, (std::vector<int32_t>{10, 7, 4, 1, -2}));
  auto fr = Eval<float>(ir::RampNode::Make(FloatOf(0.5), FloatOf(0.25), 3));
  ASSERT_TRUE(fr.ok()) << fr.status();
  EXPECT_EQ(*fr, (std::vector<float>{0.5f, 0.75f, 1.0f}));
  // More lanes than Value keeps inline.
  auto wide = Eval<int32_t>(ir::AddNode::Make(ir::RampNode::Make(IntOf(0), IntOf(1), 40),
                                              ir::BroadcastNode::Make(IntOf(1), 40)));
  ASSERT_TRUE(wide.ok()) << wide.status();
  EXPECT_EQ((*wide)[39], 40);
}

TEST(ExprTest, SelectEvaluatesBothOperands) {
  EXPECT_EQ(EvalScalar<int32_t>(ir::SelectNode::Make(Bool(true), IntOf(1), IntOf(2))), 1);
  const Expr ramp = ir::RampNode::Make(IntOf(0), IntOf(1), 4);
  const Expr cond = ir::LTNode::Make(ramp, ir::BroadcastNode::Make(IntOf(2), 4));
  auto v = Eval<int32_t>(ir::SelectNode::Make(cond, ramp, ir::BroadcastNode::Make(IntOf(-1), 4)));
  ASSERT_TRUE(v.ok()) << v.status();
  EXPECT_EQ(*v, (std::vector<int32_t>{0, 1, -1, -1}));
  // Unlike if_then_else, the unchosen operand is still evaluated: its division by zero counts.
  auto bad = Eval<int32_t>(
      ir::SelectNode::Make(Bool(true), IntOf(1), ir::DivNode::Make(IntOf(1), IntOf(0))));
  EXPECT_FALSE(bad.ok());
}

TEST(ExprTest, LetBindsScalarsAndVectorsAndShadows) {
  ir::Var x("x"), v("v", DataType::Int(32, 4));
  EXPECT_EQ(EvalScalar<int32_t>(ir::LetNode::Make(x, IntOf(6), ir::MulNode::Make(x, x))), 36);
  const Expr vec =
      ir::LetNode::Make(v, ir::RampNode::Make(IntOf(1), IntOf(1), 4), ir::AddNode::Make(v, v));
  auto r = Eval<int32_t>(vec);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(*r, (std::vector<int32_t>{2, 4, 6, 8}));
  // (let x = 2 in x) + x, inside let x = 10: the inner binding must not leak out.
  const Expr inner = ir::AddNode::Make(ir::LetNode::Make(x, IntOf(2), x), x);
  EXPECT_EQ(EvalScalar<int32_t>(ir::LetNode::Make(x, IntOf(10), inner)), 12);
}

TEST(ExprTest, MathIntrinsics) {
  auto call = [](ir::Intrinsic op, double a) {
    return EvalScalar<float>(ir::CallNode::Make(op, {FloatOf(a)}));
  };
  EXPECT_FLOAT_EQ(call(ir::Intrinsic::kExp, 1.0), std::exp(1.0f));
  EXPECT_FLOAT_EQ(call(ir::Intrinsic::kLog, 2.0), std::log(2.0f));
  EXPECT_EQ(call(ir::Intrinsic::kSqrt, 2.25), 1.5f);
  EXPECT_FLOAT_EQ(call(ir::Intrinsic::kTanh, 0.5), std::tanh(0.5f));
  EXPECT_FLOAT_EQ(call(ir::Intrinsic::kSigmoid, 0.0), 0.5f);
  EXPECT_EQ(call(ir::Intrinsic::kFabs, -3.5), 3.5f);
  EXPECT_EQ(call(ir::Intrinsic::kFloor, -1.5), -2.0f);
  EXPECT_EQ(call(ir::Intrinsic::kCeil, -1.5), -1.0f);
  EXPECT_EQ(EvalScalar<float>(ir::CallNode::Make(ir::Intrinsic::kPow, {FloatOf(2), FloatOf(10)})),
            1024.0f);
  const Expr f64 = ir::FloatImm(DataType::Float(64), 0.1);
  EXPECT_EQ(EvalScalar<double>(ir::CallNode::Make(ir::Intrinsic::kSqrt, {f64})), std::sqrt(0.1));
  auto v = Eval<float>(
      ir::CallNode::Make(ir::Intrinsic::kFabs, {ir::RampNode::Make(FloatOf(-1), FloatOf(1), 3)}));
  ASSERT_TRUE(v.ok()) << v.status();
  EXPECT_EQ(*v, (std::vector<float>{1.0f, 0.0f, 1.0f}));
  EXPECT_EQ(EvalScalar<uint8_t>(ir::CallNode::Make(ir::Intrinsic::kLikely, {Bool(true)})), 1);
}

TEST(ExprTest, IfThenElseGuardsAnOutOfBoundsLoad) {
  ir::Buffer a("A", DataType::Float(32), {4});
  runtime::NDArray arr = MakeArray<float>(DataType::Float(32), {4}, {1, 2, 3, 4});
  ir::Var i("i");
  auto load = [&](Expr index) { return ir::LoadNode::Make(DataType::Float(32), a->data, index); };
  // if_then_else(i < 4, A[i], 0) at i = 7: only the chosen branch runs.
  const Expr guarded = ir::CallNode::Make(ir::Intrinsic::kIfThenElse,
                                          {ir::LTNode::Make(i, IntOf(4)), load(i), FloatOf(0)});
  auto r = Eval<float>(ir::LetNode::Make(i, IntOf(7), guarded), {a}, {&arr});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ((*r)[0], 0.0f);
  // The same read in a Select is an error naming the buffer, the index and the bound.
  const Expr selected = ir::SelectNode::Make(ir::LTNode::Make(i, IntOf(4)), load(i), FloatOf(0));
  auto bad = Eval<float>(ir::LetNode::Make(i, IntOf(7), selected), {a}, {&arr});
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), absl::StatusCode::kOutOfRange);
  EXPECT_NE(bad.status().message().find("A[7]"), std::string::npos) << bad.status();
  EXPECT_NE(bad.status().message().find("[0, 4)"), std::string::npos) << bad.status();
}

TEST(ExprTest, VectorIfThenElseIsLazyPerLane) {
  ir::Buffer a("A", DataType::Float(32), {4});
  runtime::NDArray arr = MakeArray<float>(DataType::Float(32), {4}, {1, 2, 3, 4});
  // Lanes 2..7 of a gather at ramp(2, 1, 8): only lanes 0 and 1 are in bounds.
  const Expr idx = ir::RampNode::Make(IntOf(2), IntOf(1), 8);
  const Expr in_bounds = ir::LTNode::Make(idx, ir::BroadcastNode::Make(IntOf(4), 8));
  const Expr gather = ir::LoadNode::Make(DataType::Float(32, 8), a->data, idx);
  // The false branch divides by zero in exactly the lanes the true branch takes.
  const Expr divisor = ir::SubNode::Make(idx, ir::BroadcastNode::Make(IntOf(3), 8));
  const Expr other = ir::CastNode::Make(
      DataType::Float(32, 8),
      ir::DivNode::Make(ir::BroadcastNode::Make(IntOf(6), 8),
                        ir::MaxNode::Make(divisor, ir::BroadcastNode::Make(IntOf(0), 8))));
  auto r = Eval<float>(ir::CallNode::Make(ir::Intrinsic::kIfThenElse, {in_bounds, gather, other}),
                       {a}, {&arr});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(*r, (std::vector<float>{3, 4, 6, 3, 2, 1, 1, 1}));
  // A scalar condition picks a whole operand.
  auto s =
      Eval<float>(ir::CallNode::Make(ir::Intrinsic::kIfThenElse,
                                     {Bool(false), gather, ir::BroadcastNode::Make(FloatOf(9), 8)}),
                  {a}, {&arr});
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ((*s)[7], 9.0f);
}

TEST(ExprTest, ExpressionsTheInterpreterRejects) {
  ir::Var free_var("n");
  auto v = Eval<int32_t>(ir::AddNode::Make(free_var, IntOf(1)));
  ASSERT_FALSE(v.ok());
  EXPECT_NE(v.status().message().find("variable n is not bound"), std::string::npos) << v.status();

  ir::Var k("k");
  ir::IterVar axis(ir::Range::FromMinExtent(0, 4), k, ir::IterVarType::kCommReduce);
  ir::Var lhs("lhs"), rhs("rhs");
  auto sum = ir::MakeCommReducer("sum", lhs, rhs, ir::AddNode::Make(lhs, rhs), IntOf(0));
  auto r = Eval<int32_t>(ir::ReduceNode::Make(sum, k, {axis}, Expr()));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), absl::StatusCode::kUnimplemented);
  EXPECT_NE(r.status().message().find("Reduce"), std::string::npos);

  auto h = Eval<uint16_t>(ir::FloatImm(DataType::Float(16), 1.0));
  ASSERT_FALSE(h.ok());
  EXPECT_NE(h.status().message().find("float16"), std::string::npos) << h.status();

  auto sync = Eval<int32_t>(ir::CallNode::Make(ir::Intrinsic::kSyncThreads, {}));
  ASSERT_FALSE(sync.ok());
  EXPECT_NE(sync.status().message().find("sync_threads"), std::string::npos);
}

}  // namespace
}  // namespace tunefarm::interp
