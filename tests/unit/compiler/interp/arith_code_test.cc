// Scalar and lane-wise arithmetic, comparison, logic and casts, per type. The raw node Makes are
// used throughout because op.h folds integer constants, which would bypass the interpreter.
#include "compiler/interp/arith_code.h"

#include <cmath>
#include <cstdint>
#include <gtest/gtest.h>
#include <limits>

#include "tests/unit/compiler/interp/interp_fixtures.h"

namespace tunefarm::interp {
namespace {

using ir::DataType;
using ir::Expr;
using testing::Eval;
using testing::EvalScalar;

Expr Int(DataType t, int64_t v) { return ir::IntImm(t, v); }
Expr I32(int64_t v) { return ir::IntImm(DataType::Int(32), v); }
Expr F32(double v) { return ir::FloatImm(DataType::Float(32), v); }
Expr F64(double v) { return ir::FloatImm(DataType::Float(64), v); }

TEST(ArithTest, IntegerArithmeticWrapsAtTheTypeWidth) {
  EXPECT_EQ(EvalScalar<int32_t>(ir::AddNode::Make(I32(INT32_MAX), I32(1))), INT32_MIN);
  const DataType i8 = DataType::Int(8), u8 = DataType::UInt(8), u16 = DataType::UInt(16);
  EXPECT_EQ(EvalScalar<int8_t>(ir::AddNode::Make(Int(i8, 127), Int(i8, 1))), -128);
  EXPECT_EQ(EvalScalar<int8_t>(ir::MulNode::Make(Int(i8, 16), Int(i8, 16))), 0);
  EXPECT_EQ(EvalScalar<uint8_t>(ir::SubNode::Make(Int(u8, 0), Int(u8, 1))), 255);
  // 65535 * 65535 would overflow int after C's promotion; the IR wraps at 16 bits.
  EXPECT_EQ(EvalScalar<uint16_t>(ir::MulNode::Make(Int(u16, 65535), Int(u16, 65535))), 1);
  const DataType i64 = DataType::Int(64), u64 = DataType::UInt(64);
  EXPECT_EQ(EvalScalar<int64_t>(ir::AddNode::Make(Int(i64, INT64_MAX), Int(i64, 1))), INT64_MIN);
  EXPECT_EQ(EvalScalar<uint64_t>(ir::AddNode::Make(Int(u64, -1), Int(u64, 1))), 0u);
  EXPECT_EQ(EvalScalar<uint64_t>(ir::DivNode::Make(Int(u64, -1), Int(u64, 2))),
            uint64_t{0x7FFFFFFFFFFFFFFF});
  EXPECT_EQ(EvalScalar<uint8_t>(ir::GTNode::Make(Int(u64, -1), Int(u64, 1))), 1);
  EXPECT_EQ(EvalScalar<uint32_t>(
                ir::MaxNode::Make(Int(DataType::UInt(32), 0xFFFFFFFF), Int(DataType::UInt(32), 1))),
            0xFFFFFFFFu);
  EXPECT_EQ(EvalScalar<int32_t>(ir::MinNode::Make(I32(-5), I32(3))), -5);
}

TEST(ArithTest, DivAndModTruncateFloorDivAndFloorModRoundDown) {
  struct Case {
    int a, b, div, mod, floordiv, floormod;
  };
  for (const Case& c :
       {Case{-7, 2, -3, -1, -4, 1}, Case{7, -2, -3, 1, -4, -1}, Case{-7, -2, 3, -1, 3, -1},
        Case{7, 2, 3, 1, 3, 1}, Case{-8, 2, -4, 0, -4, 0}}) {
    SCOPED_TRACE(::testing::Message() << c.a << " and " << c.b);
    EXPECT_EQ(EvalScalar<int32_t>(ir::DivNode::Make(I32(c.a), I32(c.b))), c.div);
    EXPECT_EQ(EvalScalar<int32_t>(ir::ModNode::Make(I32(c.a), I32(c.b))), c.mod);
    EXPECT_EQ(EvalScalar<int32_t>(ir::FloorDivNode::Make(I32(c.a), I32(c.b))), c.floordiv);
    EXPECT_EQ(EvalScalar<int32_t>(ir::FloorModNode::Make(I32(c.a), I32(c.b))), c.floormod);
  }
  // The one overflowing division wraps rather than trapping.
  EXPECT_EQ(EvalScalar<int32_t>(ir::DivNode::Make(I32(INT32_MIN), I32(-1))), INT32_MIN);
  EXPECT_EQ(EvalScalar<int32_t>(ir::ModNode::Make(I32(INT32_MIN), I32(-1))), 0);
  const DataType i64 = DataType::Int(64);
  EXPECT_EQ(EvalScalar<int64_t>(ir::FloorDivNode::Make(Int(i64, INT64_MIN), Int(i64, -1))),
            INT64_MIN);
  const DataType u8 = DataType::UInt(8);
  EXPECT_EQ(EvalScalar<uint8_t>(ir::FloorDivNode::Make(Int(u8, 250), Int(u8, 7))), 35);
  EXPECT_EQ(EvalScalar<uint8_t>(ir::FloorModNode::Make(Int(u8, 250), Int(u8, 7))), 5);
}

TEST(ArithTest, IntegerDivisionByZeroIsAnError) {
  for (ir::ExprKind kind :
       {ir::ExprKind::kDiv, ir::ExprKind::kMod, ir::ExprKind::kFloorDiv, ir::ExprKind::kFloorMod}) {
    Expr e;
    switch (kind) {
      case ir::ExprKind::kDiv:
        e = ir::DivNode::Make(I32(7), I32(0));
        break;
      case ir::ExprKind::kMod:
        e = ir::ModNode::Make(I32(7), I32(0));
        break;
      case ir::ExprKind::kFloorDiv:
        e = ir::FloorDivNode::Make(I32(7), I32(0));
        break;
      default:
        e = ir::FloorModNode::Make(I32(7), I32(0));
        break;
    }
    auto v = Eval<int32_t>(e);
    ASSERT_FALSE(v.ok());
    EXPECT_EQ(v.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_NE(v.status().message().find("division by zero"), std::string::npos) << v.status();
  }
  // Floats follow IEEE instead.
  EXPECT_EQ(EvalScalar<float>(ir::DivNode::Make(F32(1), F32(0))),
            std::numeric_limits<float>::infinity());
}

TEST(ArithTest, FloatsDivideAndRoundPerType) {
  EXPECT_EQ(EvalScalar<float>(ir::DivNode::Make(F32(7), F32(2))), 3.5f);
  EXPECT_EQ(EvalScalar<float>(ir::ModNode::Make(F32(-7), F32(2))), -1.0f);
  EXPECT_EQ(EvalScalar<float>(ir::FloorDivNode::Make(F32(-7), F32(2))), -4.0f);
  EXPECT_EQ(EvalScalar<float>(ir::FloorModNode::Make(F32(-7), F32(2))), 1.0f);
  EXPECT_EQ(EvalScalar<double>(ir::FloorModNode::Make(F64(7.5), F64(-2))), -0.5);
  // float32 arithmetic rounds to float: 1e8 + 1 is not representable.
  EXPECT_EQ(EvalScalar<float>(ir::AddNode::Make(F32(1e8), F32(1))), 1e8f);
  EXPECT_EQ(EvalScalar<double>(ir::AddNode::Make(F64(1e8), F64(1))), 100000001.0);
  EXPECT_EQ(EvalScalar<float>(ir::DivNode::Make(F32(1), F32(3))), 1.0f / 3.0f);
  const Expr nan = F32(std::nan(""));
  EXPECT_EQ(EvalScalar<uint8_t>(ir::LENode::Make(nan, F32(1))), 0);
  EXPECT_EQ(EvalScalar<uint8_t>(ir::GENode::Make(nan, F32(1))), 0);
  EXPECT_EQ(EvalScalar<uint8_t>(ir::NENode::Make(nan, nan)), 1);
}

TEST(ArithTest, ComparisonsAndLogic) {
  EXPECT_EQ(EvalScalar<uint8_t>(ir::LTNode::Make(I32(-1), I32(0))), 1);
  EXPECT_EQ(EvalScalar<uint8_t>(
                ir::LTNode::Make(Int(DataType::UInt(32), 0xFFFFFFFF), Int(DataType::UInt(32), 0))),
            0);
  EXPECT_EQ(EvalScalar<uint8_t>(ir::LENode::Make(I32(3), I32(3))), 1);
  EXPECT_EQ(EvalScalar<uint8_t>(ir::GENode::Make(I32(2), I32(3))), 0);
  EXPECT_EQ(EvalScalar<uint8_t>(ir::EQNode::Make(F64(0.5), F64(0.5))), 1);
  const Expr t = ir::IntImm(DataType::Bool(), 1), f = ir::IntImm(DataType::Bool(), 0);
  EXPECT_EQ(EvalScalar<uint8_t>(ir::AndNode::Make(t, f)), 0);
  EXPECT_EQ(EvalScalar<uint8_t>(ir::OrNode::Make(t, f)), 1);
  EXPECT_EQ(EvalScalar<uint8_t>(ir::NotNode::Make(f)), 1);
}

TEST(ArithTest, Casts) {
  const DataType i32 = DataType::Int(32), i8 = DataType::Int(8), u8 = DataType::UInt(8);
  EXPECT_EQ(EvalScalar<int32_t>(ir::CastNode::Make(i32, F32(-2.7))), -2);
  EXPECT_EQ(EvalScalar<int32_t>(ir::CastNode::Make(i32, F32(2.7))), 2);
  EXPECT_EQ(EvalScalar<uint8_t>(ir::CastNode::Make(DataType::Bool(), I32(5))), 1);
  EXPECT_EQ(EvalScalar<uint8_t>(ir::CastNode::Make(DataType::Bool(), I32(256))), 1);
  EXPECT_EQ(EvalScalar<uint8_t>(ir::CastNode::Make(DataType::Bool(), I32(0))), 0);
  EXPECT_EQ(EvalScalar<uint8_t>(ir::CastNode::Make(DataType::Bool(), F32(0.5))), 1);
  EXPECT_EQ(EvalScalar<int8_t>(ir::CastNode::Make(i8, I32(200))), -56);
  EXPECT_EQ(EvalScalar<uint8_t>(ir::CastNode::Make(u8, I32(300))), 44);
  EXPECT_EQ(EvalScalar<uint32_t>(ir::CastNode::Make(DataType::UInt(32), Int(i8, -1))), 0xFFFFFFFFu);
  EXPECT_EQ(EvalScalar<int32_t>(ir::CastNode::Make(i32, Int(u8, 255))), 255);
  EXPECT_EQ(
      EvalScalar<float>(ir::CastNode::Make(DataType::Float(32), ir::IntImm(DataType::Bool(), 1))),
      1.0f);
  // int64 -> float32 rounds once (2^24 + 1 is not a float).
  EXPECT_EQ(
      EvalScalar<float>(ir::CastNode::Make(DataType::Float(32), Int(DataType::Int(64), 16777217))),
      16777216.0f);
  EXPECT_EQ(EvalScalar<float>(ir::CastNode::Make(DataType::Float(32), F64(0.1))), 0.1f);
  EXPECT_EQ(
      EvalScalar<double>(ir::CastNode::Make(DataType::Float(64), Int(DataType::UInt(64), -1))),
      18446744073709551615.0);
  // Out of range (undefined in C): documented saturate-then-wrap, NaN to 0.
  EXPECT_EQ(EvalScalar<int32_t>(ir::CastNode::Make(i32, F32(std::nan("")))), 0);
  EXPECT_EQ(EvalScalar<int64_t>(ir::CastNode::Make(DataType::Int(64), F64(1e30))), INT64_MAX);
  EXPECT_EQ(EvalScalar<uint64_t>(ir::CastNode::Make(DataType::UInt(64), F64(1e19))),
            uint64_t{10000000000000000000u});
  EXPECT_EQ(EvalScalar<uint8_t>(ir::CastNode::Make(u8, F32(-1))), 255);
}

TEST(ArithTest, VectorsAreLaneWise) {
  const DataType i8 = DataType::Int(8);
  const Expr ramp = ir::RampNode::Make(Int(i8, 126), Int(i8, 1), 4);
  const Expr sum = ir::AddNode::Make(ramp, ir::BroadcastNode::Make(Int(i8, 1), 4));
  auto v = Eval<int8_t>(sum);
  ASSERT_TRUE(v.ok()) << v.status();
  EXPECT_EQ(*v, (std::vector<int8_t>{127, -128, -127, -126}));
  const Expr cmp = ir::LTNode::Make(ramp, ir::BroadcastNode::Make(Int(i8, 127), 4));
  auto c = Eval<uint8_t>(cmp);
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_EQ(*c, (std::vector<uint8_t>{1, 0, 1, 1}));  // 126, 127, -128, -127
  const Expr f = ir::CastNode::Make(DataType::Float(32, 4), ramp);
  auto fv = Eval<float>(ir::MulNode::Make(f, ir::BroadcastNode::Make(F32(0.5), 4)));
  ASSERT_TRUE(fv.ok()) << fv.status();
  EXPECT_EQ(*fv, (std::vector<float>{63.0f, 63.5f, -64.0f, -63.5f}));
  // A zero divisor in any lane is an error.
  const Expr div = ir::DivNode::Make(ramp, ir::RampNode::Make(Int(i8, 1), Int(i8, -1), 4));
  EXPECT_FALSE(Eval<int8_t>(div).ok());
}

}  // namespace
}  // namespace tunefarm::interp
