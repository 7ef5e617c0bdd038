// Rule table for vector operands: broadcasts and ramps.
#include <gtest/gtest.h>

#include "compiler/ir/op.h"
#include "tests/unit/compiler/ir/simplify/expect_simplifies.h"

namespace tunefarm::arith {
namespace {

using ir::BroadcastNode;
using ir::DataType;
using ir::Expr;
using ir::RampNode;
using ir::Var;

using testing::Add;
using testing::Mul;
using testing::Sub;

TEST(SimplifyVectorTest, BroadcastsAndRamps) {
  Var x("x"), y("y");
  ExpectSimplifies(Add(BroadcastNode::Make(x, 4), BroadcastNode::Make(Sub(Expr(3), x), 4)),
                   BroadcastNode::Make(3, 4));
  ExpectSimplifies(Add(RampNode::Make(x, 1, 4), BroadcastNode::Make(y, 4)),
                   RampNode::Make(Add(x, y), 1, 4));
  ExpectSimplifies(Sub(RampNode::Make(x, 2, 4), RampNode::Make(x, 1, 4)), RampNode::Make(0, 1, 4));
  ExpectSimplifies(Sub(RampNode::Make(x, 2, 4), RampNode::Make(y, 2, 4)),
                   BroadcastNode::Make(Sub(x, y), 4));
  ExpectSimplifies(Mul(RampNode::Make(x, 1, 4), BroadcastNode::Make(8, 4)),
                   RampNode::Make(Mul(x, 8), 8, 4));
  ExpectSimplifies(RampNode::Make(x, Sub(y, y), 4), BroadcastNode::Make(x, 4));
  Expr c = ir::LTNode::Make(BroadcastNode::Make(x, 4), BroadcastNode::Make(Add(x, 1), 4));
  ExpectSimplifies(c, BroadcastNode::Make(ir::IntImm(DataType::Bool(), 1), 4));
}

TEST(SimplifyVectorTest, FloatLanesAreNotReassociated) {
  DataType f32 = DataType::Float(32);
  Var f("f", f32), g("g", f32);
  Expr sum = Add(RampNode::Make(f, ir::FloatImm(f32, 1), 4), BroadcastNode::Make(g, 4));
  ExpectSimplifies(sum, sum);
}

// An int64 index over an int32 loop: the widened ramp folds into the index, so it stays one
// contiguous vector access. A ramp whose lanes may wrap in int32 keeps its cast.
TEST(SimplifyVectorTest, WideningARampThatFitsIsARamp) {
  DataType i64 = DataType::Int(64), i64x16 = DataType::Int(64, 16);
  Var i("i");
  Analyzer analyzer;
  analyzer.Bind(i, ir::Range::FromMinExtent(0, 64));
  Expr index = Add(BroadcastNode::Make(Mul(ir::Cast(i64, i), ir::IntImm(i64, 16)), 16),
                   ir::Cast(i64x16, RampNode::Make(0, 1, 16)));
  ExpectSimplifiesWith(
      &analyzer, index,
      RampNode::Make(Mul(ir::Cast(i64, i), ir::IntImm(i64, 16)), ir::IntImm(i64, 1), 16));
  Var unbounded("u");
  Expr may_wrap = ir::Cast(i64x16, RampNode::Make(unbounded, 1, 16));
  ExpectSimplifiesWith(&analyzer, may_wrap, may_wrap);
}

// A vector of 8 lanes starting at a multiple of 16 stays inside one block of 16: one quotient,
// contiguous remainders. Lanes that may cross a block boundary keep the division.
TEST(SimplifyVectorTest, FloorDivModOfARampWithinOneBlock) {
  Var x("x");
  Expr within = RampNode::Make(Mul(x, 16), 1, 8);
  ExpectSimplifies(ir::FloorDivNode::Make(within, BroadcastNode::Make(16, 8)),
                   BroadcastNode::Make(x, 8));
  ExpectSimplifies(ir::FloorModNode::Make(within, BroadcastNode::Make(16, 8)),
                   RampNode::Make(0, 1, 8));
  Expr offset = RampNode::Make(Add(Mul(x, 16), 8), 1, 8);  // lanes 8..15 of the block
  ExpectSimplifies(ir::FloorModNode::Make(offset, BroadcastNode::Make(16, 8)),
                   RampNode::Make(8, 1, 8));
  Expr half_block = RampNode::Make(Mul(x, 8), 1, 8);  // starts at 0 or 8 of a block of 16
  ExpectSimplifies(ir::FloorDivNode::Make(half_block, BroadcastNode::Make(16, 8)),
                   BroadcastNode::Make(ir::FloorDivNode::Make(x, 2), 8));
  Expr crossing = RampNode::Make(Add(Mul(x, 16), 9), 1, 8);  // lanes 9..16 cross into the next
  Expr div = ir::FloorDivNode::Make(crossing, BroadcastNode::Make(16, 8));
  ExpectSimplifies(div, div);
  Expr unknown = ir::FloorModNode::Make(RampNode::Make(x, 1, 8), BroadcastNode::Make(16, 8));
  ExpectSimplifies(unknown, unknown);
}

}  // namespace
}  // namespace tunefarm::arith
