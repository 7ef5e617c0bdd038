#include "compiler/ir/arith/interval_set.h"

#include <gtest/gtest.h>

#include "compiler/ir/arith/analyzer.h"
#include "compiler/ir/op.h"
#include "compiler/ir/printer.h"
#include "compiler/ir/structural_equal.h"

namespace tunefarm::arith {
namespace {

using ir::Expr;
using ir::Var;

IntervalSet Interval(Expr lo, Expr hi) { return {std::move(lo), std::move(hi)}; }

void ExpectSet(const IntervalSet& s, const Expr& lo, const Expr& hi) {
  ASSERT_TRUE(s.min.defined() && s.max.defined()) << "unbounded";
  EXPECT_TRUE(ir::StructuralEqual(s.min, lo)) << s.min << " vs " << lo;
  EXPECT_TRUE(ir::StructuralEqual(s.max, hi)) << s.max << " vs " << hi;
}

TEST(IntervalSetTest, AffineIndexOfTwoLoops) {
  Var i("i"), j("j");
  VarIntervalMap dom{{i.get(), Interval(0, 3)}, {j.get(), Interval(0, 31)}};
  ExpectSet(EvalSet(i * 32 + j, dom), 0, 127);
}

TEST(IntervalSetTest, KeepsFixedSymbols) {
  Var xo("xo"), xi("xi");
  VarIntervalMap dom{{xi.get(), Interval(0, 31)}};
  ExpectSet(EvalSet(xo * 32 + xi, dom), xo * 32, xo * 32 + 31);
}

TEST(IntervalSetTest, SymbolicExtent) {
  Var i("i"), n("n");
  VarIntervalMap dom{{i.get(), IntervalSet::FromRange({0, n})}};
  ExpectSet(EvalSet(i, dom), 0, n - 1);
  ExpectSet(EvalSet(i * 2 + 1, dom), 1, n * 2 - 1);
}

TEST(IntervalSetTest, DivModByConstants) {
  Var i("i");
  VarIntervalMap dom{{i.get(), Interval(0, 127)}};
  ExpectSet(EvalSet(ir::FloorDiv(i, 32), dom), 0, 3);
  ExpectSet(EvalSet(ir::FloorMod(i, 32), dom), 0, 31);
  ExpectSet(EvalSet(ir::TruncDiv(i, 8), dom), 0, 15);
  ExpectSet(EvalSet(ir::TruncMod(i, 8), dom), 0, 7);
  Var j("j");
  VarIntervalMap neg{{j.get(), Interval(-9, 9)}};
  ExpectSet(EvalSet(ir::FloorDiv(j, 4), neg), -3, 2);
  ExpectSet(EvalSet(ir::TruncMod(j, 4), neg), -3, 3);
}

TEST(IntervalSetTest, ModWithinOnePeriod) {
  Var xo("xo"), xi("xi");
  VarIntervalMap dom{{xi.get(), Interval(0, 7)}};
  ExpectSet(EvalSet(ir::FloorMod(xo * 32 + xi, 32), dom), 0, 7);
  ExpectSet(EvalSet(ir::FloorDiv(xo * 32 + xi, 32), dom), xo, xo);
}

TEST(IntervalSetTest, MinMaxSelectCastLet) {
  Var i("i"), n("n");
  VarIntervalMap dom{{i.get(), Interval(0, 15)}};
  ExpectSet(EvalSet(ir::Min(i, 7), dom), 0, 7);
  ExpectSet(EvalSet(ir::Max(i - 4, 0), dom), 0, 11);
  ExpectSet(EvalSet(ir::Select(i < 4, i, 20), dom), 0, 20);
  ExpectSet(EvalSet(ir::Cast(ir::DataType::Int(64), i), dom), int64_t{0}, int64_t{15});
  Var t("t");
  ExpectSet(EvalSet(ir::LetNode::Make(t, i * 2, t + 1), dom), 1, 31);
  // min with an unbounded side keeps the bounded one.
  ExpectSet(EvalSet(ir::Min(i, n), dom), ir::Min(n, 0), ir::Min(n, 15));
}

TEST(IntervalSetTest, MultiplyBySymbolOfKnownSign) {
  Var i("i"), n("n");
  VarIntervalMap dom{{i.get(), Interval(0, 3)}};
  Analyzer analyzer;
  analyzer.Bind(n, ir::Range{1, 100});
  ExpectSet(EvalSet(i * n, dom, &analyzer), 0, n * 3);
  // Without knowing n's sign the product is unbounded.
  EXPECT_TRUE(EvalSet(i * n, dom).IsEverything());
}

TEST(IntervalSetTest, LoadsAreUnbounded) {
  Var i("i");
  ir::Buffer a("A", ir::DataType::Int(32), {16});
  VarIntervalMap dom{{i.get(), Interval(0, 3)}};
  EXPECT_TRUE(EvalSet(ir::BufferLoadNode::Make(a, {i}) + 1, dom).IsEverything());
}

TEST(IntervalSetTest, DependentDomainsAreRelaxedAgain) {
  Var i("i"), j("j");
  VarIntervalMap dom{{i.get(), Interval(0, 3)}, {j.get(), Interval(0, i)}};
  ExpectSet(EvalSet(j + 1, dom), 1, 4);
}

TEST(IntervalSetTest, UnionIntersectToRange) {
  Var n("n");
  ExpectSet(Union(Interval(0, 7), Interval(4, 15)), 0, 15);
  ExpectSet(Intersect(Interval(0, 7), Interval(4, 15)), 4, 7);
  IntervalSet open = Union(Interval(0, 7), IntervalSet::Everything());
  EXPECT_TRUE(open.IsEverything());
  ExpectSet(Intersect(Interval(0, Expr()), Interval(Expr(), n)), 0, n);
  ir::Range r = ToRange(Interval(n, n + 7));
  EXPECT_TRUE(ir::StructuralEqual(r.min, n));
  EXPECT_TRUE(ir::IsConstInt(r.extent, 8));
  ir::Range fr = ToRange(IntervalSet::FromRange({2, n}));
  EXPECT_TRUE(ir::IsConstInt(fr.min, 2));
  EXPECT_TRUE(ir::StructuralEqual(fr.extent, n)) << fr.extent;
}

TEST(IntervalSetTest, BoundsPastTheTypeAreDropped) {
  Var x("x");
  VarIntervalMap dom{{x.get(), Interval(0, 2147483647)}};
  IntervalSet s = EvalSet(x + 1, dom);
  ASSERT_TRUE(s.HasLowerBound());
  EXPECT_TRUE(ir::IsConstInt(s.min, 1));
  EXPECT_FALSE(s.HasUpperBound());  // not INT32_MIN, which wrapping would give
}

TEST(IntervalSetTest, PointsAndEverything) {
  Var x("x");
  EXPECT_TRUE(IntervalSet::SinglePoint(x).IsSinglePoint());
  EXPECT_TRUE(IntervalSet::Everything().IsEverything());
  EXPECT_FALSE(IntervalSet::Everything().HasLowerBound());
  EXPECT_TRUE(Interval(0, 0).IsSinglePoint());
  IntervalSet covered = EvalSet(ir::Range{x, 4}, {});
  ExpectSet(covered, x, x + 3);
}

}  // namespace
}  // namespace tunefarm::arith
