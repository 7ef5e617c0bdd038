// Rule table for Min and Max.
#include <gtest/gtest.h>

#include "compiler/ir/op.h"
#include "tests/unit/compiler/ir/simplify/expect_simplifies.h"

namespace tunefarm::arith {
namespace {

using ir::Expr;
using ir::Var;

using testing::Add;
using testing::Sub;

Expr MinOf(Expr a, Expr b) { return ir::MinNode::Make(a, b); }
Expr MaxOf(Expr a, Expr b) { return ir::MaxNode::Make(a, b); }

TEST(SimplifyMinMaxTest, ConstantsAndOffsets) {
  Var x("x"), y("y");
  ExpectSimplifies(MinOf(Expr(3), 5), 3);
  ExpectSimplifies(MaxOf(Expr(3), 5), 5);
  ExpectSimplifies(MinOf(x, Add(x, 3)), x);
  ExpectSimplifies(MaxOf(x, Add(x, 3)), Add(x, 3));
  ExpectSimplifies(MinOf(Add(x, 4), Add(x, 2)), Add(x, 2));
  ExpectSimplifies(MaxOf(Sub(x, 1), Add(x, 2)), Add(x, 2));
  ExpectSimplifies(MinOf(x, x), x);
  ExpectSimplifies(MinOf(Add(x, y), Add(y, x)), Add(x, y));
  ExpectSimplifies(MinOf(3, x), MinOf(x, 3));
  ExpectSimplifies(MinOf(MinOf(x, 5), 3), MinOf(x, 3));
  ExpectSimplifies(MaxOf(MaxOf(x, 5), 3), MaxOf(x, 5));
}

TEST(SimplifyMinMaxTest, AbsorptionAndIdempotence) {
  Var x("x"), y("y");
  ExpectSimplifies(MinOf(x, MinOf(x, y)), MinOf(x, y));
  ExpectSimplifies(MaxOf(MaxOf(x, y), y), MaxOf(x, y));
  ExpectSimplifies(MinOf(x, MaxOf(x, y)), x);
  ExpectSimplifies(MaxOf(MinOf(x, y), x), x);
}

TEST(SimplifyMinMaxTest, BoundsDecide) {
  Var x("x"), y("y"), n("n"), i("i");
  Analyzer analyzer;
  analyzer.Bind(x, ir::Range{0, 8});
  analyzer.Bind(y, ir::Range{10, 5});
  ExpectSimplifiesWith(&analyzer, MinOf(x, y), x);
  ExpectSimplifiesWith(&analyzer, MaxOf(x, y), y);
  ExpectSimplifiesWith(&analyzer, MinOf(x, 7), x);
  ExpectSimplifiesWith(&analyzer, MaxOf(x, 0), x);
  ExpectSimplifiesWith(&analyzer, MinOf(x, 5), MinOf(x, 5));
  // Symbolic: i in [0, n) is below n.
  analyzer.Bind(i, ir::Range{0, n});
  ExpectSimplifiesWith(&analyzer, MinOf(i, n), i);
  ExpectSimplifiesWith(&analyzer, MaxOf(i, Sub(n, 1)), Sub(n, 1));
  ExpectSimplifiesWith(&analyzer, MinOf(i, Sub(n, 2)), MinOf(i, Sub(n, 2)));
}

TEST(SimplifyMinMaxTest, FloatsOnlyFoldAndDeduplicate) {
  ir::DataType f32 = ir::DataType::Float(32);
  Var f("f", f32);
  ExpectSimplifies(MinOf(ir::FloatImm(f32, 1.5), ir::FloatImm(f32, -2.0)), ir::FloatImm(f32, -2.0));
  ExpectSimplifies(MinOf(f, f), f);
  ExpectSimplifies(MaxOf(f, ir::FloatImm(f32, 0.0)), MaxOf(f, ir::FloatImm(f32, 0.0)));
}

}  // namespace
}  // namespace tunefarm::arith
