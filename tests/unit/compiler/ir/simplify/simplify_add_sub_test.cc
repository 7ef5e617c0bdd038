// Rule table for Add and Sub: the canonical linear form.
#include <gtest/gtest.h>

#include "compiler/ir/op.h"
#include "tests/unit/compiler/ir/simplify/expect_simplifies.h"

namespace tunefarm::arith {
namespace {

using ir::AddNode;
using ir::Expr;
using ir::MulNode;
using ir::SubNode;
using ir::Var;
using testing::Add;
using testing::Mul;
using testing::Sub;

TEST(SimplifyAddSubTest, CombinesLikeTerms) {
  Var x("x"), y("y"), i("i"), j("j");
  ExpectSimplifies(Sub(Sub(Mul(Add(x, 3), 2), x), 6), x);
  ExpectSimplifies(Sub(Add(Mul(i, 32), j), Mul(i, 32)), j);
  ExpectSimplifies(Add(x, x), Mul(x, 2));
  ExpectSimplifies(Sub(x, x), 0);
  ExpectSimplifies(Sub(Add(x, y), Add(y, x)), 0);
  ExpectSimplifies(Add(Add(x, 1), Add(y, 2)), Add(Add(x, y), 3));
  ExpectSimplifies(Add(Mul(x, 2), Mul(x, 3)), Mul(x, 5));
  ExpectSimplifies(Sub(Mul(x, 2), Mul(x, 2)), 0);
}

TEST(SimplifyAddSubTest, KeepsFirstAppearanceOrder) {
  Var x("x"), y("y"), i("i"), j("j");
  ExpectSimplifies(Add(Mul(i, 32), j), Add(Mul(i, 32), j));
  ExpectSimplifies(Add(j, Mul(i, 32)), Add(j, Mul(i, 32)));
  ExpectSimplifies(Add(Sub(x, y), 0), Sub(x, y));
  // A negative leading term gives way to the first positive one.
  ExpectSimplifies(Add(Sub(0, y), x), Sub(x, y));
  ExpectSimplifies(Sub(5, x), Sub(5, x));
  ExpectSimplifies(Sub(0, x), Sub(0, x));
  ExpectSimplifies(Sub(Sub(0, x), y), Sub(Sub(0, x), y));
  ExpectSimplifies(Sub(x, 3), Sub(x, 3));
  ExpectSimplifies(Add(x, -3), Sub(x, 3));
}

TEST(SimplifyAddSubTest, ConstantsFold) {
  ExpectSimplifies(Add(Expr(3), 4), 7);
  ExpectSimplifies(Sub(Expr(3), 4), -1);
  Expr int_max = ir::IntImm(ir::DataType::Int(32), 2147483647);
  // int32 wraps at its width.
  ExpectSimplifies(Add(int_max, 1), ir::IntImm(ir::DataType::Int(32), -2147483648LL));
  ir::DataType u8 = ir::DataType::UInt(8);
  ExpectSimplifies(Add(ir::IntImm(u8, 250), ir::IntImm(u8, 10)), ir::IntImm(u8, 4));
  ExpectSimplifies(Sub(ir::IntImm(u8, 1), ir::IntImm(u8, 2)), ir::IntImm(u8, 255));
  ir::DataType f32 = ir::DataType::Float(32);
  ExpectSimplifies(Add(ir::FloatImm(f32, 0.1), ir::FloatImm(f32, 0.2)),
                   ir::FloatImm(f32, static_cast<double>(0.1f + 0.2f)));
}

TEST(SimplifyAddSubTest, KeepsTypes) {
  ir::DataType i64 = ir::DataType::Int(64);
  Var n("n", i64);
  Expr one = ir::IntImm(i64, 1);
  ExpectSimplifies(Sub(Add(n, one), one), n);
  ExpectSimplifies(Add(Add(n, n), one), Add(Mul(n, ir::IntImm(i64, 2)), one));
  // Unsigned sums combine modulo 2^bits and print small negative constants as subtraction.
  ir::DataType u32 = ir::DataType::UInt(32);
  Var u("u", u32);
  ExpectSimplifies(Add(u, ir::IntImm(u32, 4294967295LL)), Sub(u, ir::IntImm(u32, 1)));
}

TEST(SimplifyAddSubTest, FloatsAreNotReassociated) {
  Var f("f", ir::DataType::Float(32)), g("g", ir::DataType::Float(32));
  Expr zero = ir::FloatImm(ir::DataType::Float(32), 0.0);
  ExpectSimplifies(Add(f, zero), Add(f, zero));
  ExpectSimplifies(Sub(Add(f, g), g), Sub(Add(f, g), g));
}

TEST(SimplifyAddSubTest, RecombinesDivAndMod) {
  Var x("x");
  ExpectSimplifies(Add(Mul(ir::FloorDivNode::Make(x, 8), 8), ir::FloorModNode::Make(x, 8)), x);
  ExpectSimplifies(Add(Mul(ir::DivNode::Make(x, 4), 4), ir::ModNode::Make(x, 4)), x);
  ExpectSimplifies(Add(Mul(ir::FloorDivNode::Make(x, 8), 16), Mul(ir::FloorModNode::Make(x, 8), 2)),
                   Mul(x, 2));
}

}  // namespace
}  // namespace tunefarm::arith
