// Rule tables for comparisons, logic, Select, likely, if_then_else and Cast.
#include <gtest/gtest.h>

#include "compiler/ir/op.h"
#include "tests/unit/compiler/ir/simplify/expect_simplifies.h"

namespace tunefarm::arith {
namespace {

using ir::DataType;
using ir::Expr;
using ir::Var;

using testing::Add;
using testing::Mul;
using testing::Sub;

Expr LT(Expr a, Expr b) { return ir::LTNode::Make(a, b); }
Expr LE(Expr a, Expr b) { return ir::LENode::Make(a, b); }
Expr GT(Expr a, Expr b) { return ir::GTNode::Make(a, b); }
Expr GE(Expr a, Expr b) { return ir::GENode::Make(a, b); }
Expr EQ(Expr a, Expr b) { return ir::EQNode::Make(a, b); }
Expr NE(Expr a, Expr b) { return ir::NENode::Make(a, b); }
Expr And(Expr a, Expr b) { return ir::AndNode::Make(a, b); }
Expr Or(Expr a, Expr b) { return ir::OrNode::Make(a, b); }
Expr Not(Expr a) { return ir::NotNode::Make(a); }
Expr True() { return ir::IntImm(DataType::Bool(), 1); }
Expr False() { return ir::IntImm(DataType::Bool(), 0); }

TEST(SimplifyCompareTest, Decided) {
  Var x("x"), y("y");
  ExpectSimplifies(LT(x, Add(x, 1)), True());
  ExpectSimplifies(LE(Add(x, 1), x), False());
  ExpectSimplifies(EQ(Add(x, y), Add(y, x)), True());
  ExpectSimplifies(NE(x, x), False());
  ExpectSimplifies(LT(Expr(3), 4), True());
  ExpectSimplifies(GE(Expr(3), 4), False());
  ExpectSimplifies(EQ(Mul(x, 2), 1), False());
  ExpectSimplifies(NE(Add(Mul(x, 4), 2), Mul(y, 4)), True());
}

TEST(SimplifyCompareTest, Canonicalized) {
  Var x("x"), y("y"), n("n");
  ExpectSimplifies(LT(Add(x, 5), Add(y, 5)), LT(x, y));
  ExpectSimplifies(GT(x, y), LT(y, x));
  ExpectSimplifies(GE(x, y), LE(y, x));
  ExpectSimplifies(LT(Add(x, 1), y), LT(x, Sub(y, 1)));
  ExpectSimplifies(LT(Expr(3), x), LT(3, x));
  ExpectSimplifies(LT(x, 3), LT(x, 3));
  ExpectSimplifies(LT(x, Add(y, 3)), LT(x, Add(y, 3)));
  ExpectSimplifies(LT(Sub(x, 3), y), LT(x, Add(y, 3)));
  ExpectSimplifies(GT(Sub(n, x), 0), LT(x, n));
  ExpectSimplifies(LT(Mul(x, 4), 8), LT(x, 2));
  ExpectSimplifies(LT(Mul(x, 4), 9), LT(x, 3));
  ExpectSimplifies(LE(Mul(x, 4), 9), LE(x, 2));
  ExpectSimplifies(EQ(Mul(x, 4), 8), EQ(x, 2));
  ExpectSimplifies(EQ(Mul(x, 4), Add(Mul(y, 2), 6)), EQ(Mul(x, 2), Add(y, 3)));
}

TEST(SimplifyCompareTest, UsesBounds) {
  Var i("i"), n("n"), x("x");
  Analyzer analyzer;
  analyzer.Bind(i, ir::Range{0, n});
  analyzer.Bind(x, ir::Range{0, 16});
  ExpectSimplifiesWith(&analyzer, LT(i, n), True());
  ExpectSimplifiesWith(&analyzer, GE(i, 0), True());
  ExpectSimplifiesWith(&analyzer, LT(i, Sub(n, 1)), LT(i, Sub(n, 1)));
  ExpectSimplifiesWith(&analyzer, LT(x, 16), True());
  ExpectSimplifiesWith(&analyzer, LT(x, 15), LT(x, 15));
  ExpectSimplifiesWith(&analyzer, EQ(x, -1), False());
}

TEST(SimplifyCompareTest, UnsignedAndFloat) {
  DataType u32 = DataType::UInt(32), f32 = DataType::Float(32);
  Var u("u", u32), f("f", f32);
  // 0u - 1 wraps: no rearranging of unsigned differences, but bounds still decide.
  ExpectSimplifies(LT(ir::IntImm(u32, 4294967295LL), ir::IntImm(u32, 1)), False());
  ExpectSimplifies(GE(u, ir::IntImm(u32, 0)), True());
  ExpectSimplifies(LT(Add(u, ir::IntImm(u32, 1)), u), LT(Add(u, ir::IntImm(u32, 1)), u));
  // NaN compares unequal to itself.
  ExpectSimplifies(EQ(f, f), EQ(f, f));
  ExpectSimplifies(LT(ir::FloatImm(f32, 1.0), ir::FloatImm(f32, 2.0)), True());
}

TEST(SimplifyLogicTest, Rules) {
  Var x("x"), y("y");
  Var b("b", DataType::Bool());
  ExpectSimplifies(And(True(), b), b);
  ExpectSimplifies(And(False(), b), False());
  ExpectSimplifies(Or(b, True()), True());
  ExpectSimplifies(Or(False(), b), b);
  ExpectSimplifies(And(b, b), b);
  ExpectSimplifies(And(b, Not(b)), False());
  ExpectSimplifies(Or(LT(x, y), LE(y, x)), True());
  ExpectSimplifies(Not(Not(b)), b);
  ExpectSimplifies(Not(LT(x, y)), LE(y, x));
  ExpectSimplifies(Not(LE(x, y)), LT(y, x));
  ExpectSimplifies(Not(EQ(x, y)), NE(x, y));
  ExpectSimplifies(Not(True()), False());
  Var f("f", DataType::Float(32)), g("g", DataType::Float(32));
  ExpectSimplifies(Not(LT(f, g)), Not(LT(f, g)));
  ExpectSimplifies(Not(EQ(f, g)), NE(f, g));
}

TEST(SimplifyLogicTest, SelectLikelyIfThenElse) {
  Var x("x"), y("y"), i("i"), n("n");
  ExpectSimplifies(ir::SelectNode::Make(True(), x, y), x);
  ExpectSimplifies(ir::SelectNode::Make(LT(x, Add(x, 1)), x, y), x);
  ExpectSimplifies(ir::SelectNode::Make(LT(x, y), x, x), x);
  ExpectSimplifies(ir::Likely(LT(x, y)), ir::Likely(LT(x, y)));
  Analyzer analyzer;
  analyzer.Bind(i, ir::Range{0, n});
  ExpectSimplifiesWith(&analyzer, ir::Likely(LT(i, n)), True());
  ExpectSimplifies(ir::IfThenElse(False(), x, y), y);
  // The true branch may assume the condition.
  Expr guarded = ir::IfThenElse(LT(x, 8), ir::MinNode::Make(x, 10), y);
  ExpectSimplifies(guarded, ir::IfThenElse(LT(x, 8), x, y));
}

TEST(SimplifyCastTest, Rules) {
  Var x("x");
  DataType i64 = DataType::Int(64), i8 = DataType::Int(8), f32 = DataType::Float(32);
  ExpectSimplifies(ir::CastNode::Make(i64, ir::IntImm(DataType::Int(32), -5)), ir::IntImm(i64, -5));
  ExpectSimplifies(ir::CastNode::Make(i8, ir::IntImm(DataType::Int(32), 200)), ir::IntImm(i8, -56));
  ExpectSimplifies(ir::CastNode::Make(f32, ir::IntImm(DataType::Int(32), 3)), ir::FloatImm(f32, 3));
  ExpectSimplifies(ir::CastNode::Make(DataType::Int(32), ir::FloatImm(f32, -2.75)), -2);
  ExpectSimplifies(ir::CastNode::Make(DataType::Int(32), ir::CastNode::Make(i64, x)), x);
  ExpectSimplifies(ir::CastNode::Make(DataType::Int(32), ir::CastNode::Make(i8, x)),
                   ir::CastNode::Make(DataType::Int(32), ir::CastNode::Make(i8, x)));
  // An out-of-range float is not converted at compile time.
  Expr big = ir::CastNode::Make(DataType::Int(32), ir::FloatImm(f32, 3e9));
  ExpectSimplifies(big, big);
}

TEST(SimplifyLetTest, SubstitutesTrivialValuesAndDropsUnused) {
  Var x("x"), t("t"), u("u");
  ExpectSimplifies(ir::LetNode::Make(t, 4, Add(t, x)), Add(x, 4));
  ExpectSimplifies(ir::LetNode::Make(t, Mul(x, 3), x), x);
  ExpectSimplifies(ir::LetNode::Make(t, Mul(x, 3), Add(t, t)),
                   ir::LetNode::Make(t, Mul(x, 3), Mul(t, 2)));
  // The value's bounds are known in the body.
  Analyzer analyzer;
  analyzer.Bind(x, ir::Range{0, 4});
  ExpectSimplifiesWith(&analyzer, ir::LetNode::Make(u, Mul(x, 3), LT(u, 12)), True());
}

}  // namespace
}  // namespace tunefarm::arith
