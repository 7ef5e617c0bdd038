// Rule table for Mul, floor/trunc Div and Mod.
#include <gtest/gtest.h>

#include "compiler/ir/op.h"
#include "tests/unit/compiler/ir/simplify/expect_simplifies.h"

namespace tunefarm::arith {
namespace {

using ir::Expr;
using ir::Var;

using testing::Add;
using testing::Mul;
using testing::Sub;

Expr FDiv(Expr a, Expr b) { return ir::FloorDivNode::Make(a, b); }
Expr FMod(Expr a, Expr b) { return ir::FloorModNode::Make(a, b); }
Expr TDiv(Expr a, Expr b) { return ir::DivNode::Make(a, b); }
Expr TMod(Expr a, Expr b) { return ir::ModNode::Make(a, b); }

TEST(SimplifyMulDivModTest, Multiplication) {
  Var x("x"), y("y");
  ExpectSimplifies(Mul(Add(x, 3), 2), Add(Mul(x, 2), 6));
  ExpectSimplifies(Mul(3, x), Mul(x, 3));
  ExpectSimplifies(Mul(x, 0), 0);
  ExpectSimplifies(Mul(x, 1), x);
  ExpectSimplifies(Mul(Mul(x, 2), 3), Mul(x, 6));
  ExpectSimplifies(Mul(Mul(x, 2), y), Mul(Mul(x, y), 2));
  ExpectSimplifies(Mul(Expr(6), 7), 42);
  Var f("f", ir::DataType::Float(32));
  ExpectSimplifies(Mul(f, ir::FloatImm(ir::DataType::Float(32), 1.0)), f);
}

TEST(SimplifyMulDivModTest, FloorDivision) {
  Var x("x"), y("y");
  ExpectSimplifies(FDiv(x, 1), x);
  ExpectSimplifies(FDiv(Expr(7), 2), 3);
  ExpectSimplifies(FDiv(Expr(-7), 2), -4);
  ExpectSimplifies(FDiv(Expr(7), 0), FDiv(Expr(7), 0));  // never folded
  ExpectSimplifies(FDiv(Mul(x, 8), 4), Mul(x, 2));
  ExpectSimplifies(FDiv(Mul(x, 4), 8), FDiv(x, 2));
  ExpectSimplifies(FDiv(FDiv(x, 4), 8), FDiv(x, 32));
  ExpectSimplifies(FDiv(Add(Mul(x, 4), 5), 4), Add(x, 1));
  ExpectSimplifies(FDiv(Add(Mul(x, 4), y), 4), Add(x, FDiv(y, 4)));
  ExpectSimplifies(FDiv(Add(Mul(x, 6), 4), 4), FDiv(Add(Mul(x, 3), 2), 2));
  // Negative divisors are left alone.
  ExpectSimplifies(FDiv(Mul(x, 4), -2), FDiv(Mul(x, 4), -2));
}

TEST(SimplifyMulDivModTest, FloorModulo) {
  Var x("x"), y("y");
  ExpectSimplifies(FMod(x, 1), 0);
  ExpectSimplifies(FMod(Expr(-7), 2), 1);
  ExpectSimplifies(FMod(Mul(x, 8), 4), 0);
  ExpectSimplifies(FMod(Add(Mul(x, 8), 5), 4), 1);
  ExpectSimplifies(FMod(FMod(x, 32), 8), FMod(x, 8));
  ExpectSimplifies(FMod(Add(x, 5), 4), FMod(Add(x, 1), 4));
  ExpectSimplifies(FMod(Mul(x, 5), 4), FMod(x, 4));
  ExpectSimplifies(FMod(Add(Mul(x, 4), y), 4), FMod(y, 4));
  ExpectSimplifies(FMod(Mul(x, 6), 4), Mul(FMod(x, 2), 2));
  ExpectSimplifies(FMod(Mul(x, 6), 9), Mul(FMod(Mul(x, 2), 3), 3));
}

TEST(SimplifyMulDivModTest, UsesKnownBounds) {
  Var x("x"), y("y");
  Analyzer analyzer;
  analyzer.Bind(y, ir::Range{0, 4});
  ExpectSimplifiesWith(&analyzer, FDiv(Add(Mul(x, 4), y), 4), x);
  ExpectSimplifiesWith(&analyzer, FMod(Add(Mul(x, 4), y), 4), y);
  ExpectSimplifiesWith(&analyzer, FDiv(y, 4), 0);
  ExpectSimplifiesWith(&analyzer, FMod(y, 8), y);
  ExpectSimplifiesWith(&analyzer, FDiv(Add(Mul(x, 4), Add(y, 4)), 4), Add(x, 1));
  // xo*32 + xi with xi in [0, 32) splits back into xo and xi.
  Var xo("xo"), xi("xi");
  analyzer.Bind(xi, ir::Range{0, 32});
  ExpectSimplifiesWith(&analyzer, FDiv(Add(Mul(xo, 32), xi), 32), xo);
  ExpectSimplifiesWith(&analyzer, FMod(Add(Mul(xo, 32), xi), 32), xi);
  ExpectSimplifiesWith(&analyzer, FMod(Add(Mul(xo, 32), xi), 8), FMod(xi, 8));
  ExpectSimplifiesWith(&analyzer, FDiv(Add(Mul(xo, 32), xi), 8), Add(Mul(xo, 4), FDiv(xi, 8)));
}

TEST(SimplifyMulDivModTest, TruncatingOnlyWhenNonNegative) {
  Var x("x"), y("y");
  // Unknown signs: truncating division keeps its operands.
  ExpectSimplifies(TDiv(Add(Mul(x, 4), y), 4), TDiv(Add(Mul(x, 4), y), 4));
  ExpectSimplifies(TMod(Add(Mul(x, 4), 1), 4), TMod(Add(Mul(x, 4), 1), 4));
  ExpectSimplifies(TDiv(x, 1), x);
  ExpectSimplifies(TMod(x, 1), 0);
  ExpectSimplifies(TDiv(Expr(-7), 2), -3);
  ExpectSimplifies(TMod(Expr(-7), 2), -1);
  // Nesting holds for every sign.
  ExpectSimplifies(TDiv(TDiv(x, 4), 8), TDiv(x, 32));
  ExpectSimplifies(TMod(TMod(x, 32), 8), TMod(x, 8));
  Analyzer analyzer;
  analyzer.Bind(x, ir::Range{0, 100});
  analyzer.Bind(y, ir::Range{0, 4});
  ExpectSimplifiesWith(&analyzer, TDiv(Add(Mul(x, 4), y), 4), x);
  ExpectSimplifiesWith(&analyzer, TMod(Add(Mul(x, 4), y), 4), y);
  ExpectSimplifiesWith(&analyzer, TDiv(Mul(x, 8), 4), Mul(x, 2));
  ExpectSimplifiesWith(&analyzer, TDiv(y, 4), 0);
  // |y - 2| < 4: truncation toward zero gives 0 for either sign.
  ExpectSimplifiesWith(&analyzer, TDiv(Sub(y, 2), 4), 0);
  ExpectSimplifiesWith(&analyzer, TMod(Sub(y, 2), 4), Sub(y, 2));
}

TEST(SimplifyMulDivModTest, ModularSetDecidesRemainders) {
  Var x("x"), v("v");
  Analyzer analyzer;
  analyzer.Bind(v, Mul(x, 8));
  ExpectSimplifiesWith(&analyzer, FMod(v, 4), 0);
  ExpectSimplifiesWith(&analyzer, FMod(Add(v, 3), 4), 3);
}

}  // namespace
}  // namespace tunefarm::arith
