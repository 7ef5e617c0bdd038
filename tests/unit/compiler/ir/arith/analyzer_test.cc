#include "compiler/ir/arith/analyzer.h"

#include <gtest/gtest.h>

#include "compiler/ir/op.h"
#include "compiler/ir/structural_equal.h"

namespace tunefarm::arith {
namespace {

using ir::Expr;
using ir::Var;

TEST(AnalyzerTest, BindRangeAndValue) {
  Analyzer analyzer;
  Var i("i"), t("t");
  analyzer.Bind(i, ir::Range{2, 8});
  EXPECT_EQ(analyzer.GetConstBound(i), (Analyzer::ConstBound{2, 9}));
  EXPECT_TRUE(analyzer.CanProveGreaterEqual(i * 2, 4));
  EXPECT_TRUE(analyzer.CanProveLess(i + 1, 11));
  EXPECT_FALSE(analyzer.CanProveLess(i + 1, 10));
  analyzer.Bind(t, i * 4);
  EXPECT_EQ(analyzer.GetConstBound(t), (Analyzer::ConstBound{8, 36}));
  EXPECT_TRUE(analyzer.GetModularSet(t).IsMultipleOf(4));
  EXPECT_TRUE(analyzer.CanProve(ir::FloorMod(t, 2) == 0));
}

TEST(AnalyzerTest, UnknownBoundsAreInfinite) {
  Analyzer analyzer;
  Var w("w", ir::DataType::Int(64));
  Analyzer::ConstBound b = analyzer.GetConstBound(w);
  EXPECT_EQ(b.min, INT64_MIN);
  EXPECT_EQ(b.max, INT64_MAX);
  EXPECT_FALSE(analyzer.CanProve(w < 5));
}

TEST(AnalyzerTest, SymbolicBoundsProveComparisons) {
  Analyzer analyzer;
  Var i("i"), n("n"), j("j");
  analyzer.Bind(i, ir::Range{0, n});
  EXPECT_TRUE(analyzer.CanProve(i < n));
  EXPECT_TRUE(analyzer.CanProve(i <= n - 1));
  EXPECT_FALSE(analyzer.CanProve(i < n - 1));
  analyzer.Bind(j, ir::Range{0, i + 1});
  EXPECT_TRUE(analyzer.CanProve(j <= i));
  EXPECT_TRUE(analyzer.CanProve(j < n));
  {
    IntervalSet s = analyzer.GetIntervalSet(i * 2 + 1);
    EXPECT_TRUE(ir::StructuralEqual(s.min, Expr(1)));
    EXPECT_TRUE(ir::StructuralEqual(s.max, n * 2 - 1));
  }
}

TEST(AnalyzerTest, ConstraintsAreScoped) {
  Analyzer analyzer;
  Var x("x"), n("n");
  EXPECT_FALSE(analyzer.CanProve(x < 10));
  {
    Analyzer::Scope scope = analyzer.EnterConstraint(ir::Likely(x < 8 && 0 <= x));
    EXPECT_TRUE(analyzer.CanProve(x < 10));
    EXPECT_TRUE(analyzer.CanProveGreaterEqual(x, 0));
    EXPECT_EQ(analyzer.GetConstBound(x), (Analyzer::ConstBound{0, 7}));
    {
      Analyzer::Scope inner = analyzer.EnterConstraint(x + 2 < n);
      EXPECT_TRUE(analyzer.CanProve(x < n));
      EXPECT_TRUE(analyzer.CanProve(x + 2 < n));
    }
    EXPECT_FALSE(analyzer.CanProve(x < n));
  }
  EXPECT_FALSE(analyzer.CanProve(x < 10));
  EXPECT_EQ(analyzer.GetConstBound(x).max, 2147483647);
}

TEST(AnalyzerTest, AssumedConditionsHold) {
  Analyzer analyzer;
  Var x("x"), y("y");
  Expr c = ir::FloorMod(x * y, 7) == 3;
  Analyzer::Scope scope = analyzer.EnterConstraint(c);
  EXPECT_TRUE(analyzer.CanProve(c));
  EXPECT_TRUE(ir::IsConstInt(analyzer.Simplify(c), 1));
  EXPECT_TRUE(analyzer.IsAssumed(ir::FloorMod(x * y, 7) == 3));
  EXPECT_TRUE(ir::IsConstInt(analyzer.Simplify(!c), 0));
}

TEST(AnalyzerTest, EqualityBindsBothSides) {
  Analyzer analyzer;
  Var x("x"), n("n");
  Analyzer::Scope scope = analyzer.EnterConstraint(x == n - 1);
  EXPECT_TRUE(analyzer.CanProve(x < n));
  Analyzer::Scope scope2 = analyzer.EnterConstraint(n == 5);
  EXPECT_EQ(analyzer.GetConstBound(n), (Analyzer::ConstBound{5, 5}));
}

// Regression: a type's largest value once became an interval endpoint, and relaxing
// floordiv(n + 1, 2) with n up to INT32_MAX wrapped to a negative bound for io.
TEST(AnalyzerTest, TypeLimitsAreNotWrappedIntoBounds) {
  Analyzer analyzer;
  Var n("n"), io("io"), ii("ii");
  analyzer.Bind(io, ir::Range{0, ir::FloorDiv(n + 1, 2)});
  analyzer.Bind(ii, ir::Range{0, 2});
  Analyzer::Scope scope = analyzer.EnterConstraint(io * 2 + ii < n);
  EXPECT_EQ(analyzer.GetConstBound(io), (Analyzer::ConstBound{0, 1073741822}));
  EXPECT_EQ(analyzer.GetConstBound(n), (Analyzer::ConstBound{1, 2147483647}));
  EXPECT_FALSE(analyzer.CanProveLess(ir::FloorDiv(n + 2, 3), 1));
  EXPECT_TRUE(analyzer.CanProveGreaterEqual(ir::FloorDiv(n + 2, 3), 1));
}

// Regression (randomized test): y == z - 5 gives y and z bounds in each other; relaxing one
// brought the other back with a clamped constant bound near INT32_MIN, whose arithmetic wrapped
// and "proved" x <= select(x != y, z, y).
TEST(AnalyzerTest, MutuallyDependentBoundsStaySound) {
  Analyzer analyzer;
  Var x("x"), y("y"), z("z");
  Analyzer::Scope scope = analyzer.EnterConstraint(y == z - 5);
  Expr e = ir::Min(x, ir::Select(x != y, z, y));
  EXPECT_FALSE(ir::StructuralEqual(analyzer.Simplify(e), x));
  EXPECT_TRUE(analyzer.CanProve(y < z));
  EXPECT_FALSE(analyzer.CanProve(x < z));
}

TEST(AnalyzerTest, ScopedBindingRestoresPreviousKnowledge) {
  Analyzer analyzer;
  Var i("i");
  analyzer.Bind(i, ir::Range{0, 100});
  {
    Analyzer::Scope scope = analyzer.BindScoped(i, ir::Range{0, 4});
    EXPECT_EQ(analyzer.GetConstBound(i), (Analyzer::ConstBound{0, 3}));
  }
  EXPECT_EQ(analyzer.GetConstBound(i), (Analyzer::ConstBound{0, 99}));
  {
    Analyzer::Scope scope = analyzer.OpenScope();
    analyzer.Bind(i, ir::Range{5, 1});
    EXPECT_TRUE(analyzer.CanProve(i == 5));
  }
  EXPECT_FALSE(analyzer.CanProve(i == 5));
}

TEST(AnalyzerTest, SimplifyResultsFollowScopes) {
  Analyzer analyzer;
  Var i("i"), n("n");
  Expr q = ir::FloorDiv(i, 8);
  auto simplified = [&] { return analyzer.Simplify(ir::FloorDiv(i, 8)); };
  for (int round = 0; round < 2; ++round) {
    {
      Analyzer::Scope scope = analyzer.BindScoped(i, ir::Range{0, 8});
      EXPECT_TRUE(ir::IsConstInt(simplified(), 0));
      {
        Analyzer::Scope inner = analyzer.BindScoped(i, ir::Range{8, 8});
        EXPECT_TRUE(ir::IsConstInt(simplified(), 1));
      }
      EXPECT_TRUE(ir::IsConstInt(simplified(), 0));
    }
    // Unchanged expressions come back as themselves, copies or not.
    EXPECT_TRUE(analyzer.Simplify(q).same_as(q));
    Expr copy = ir::FloorDiv(i, 8);
    EXPECT_TRUE(analyzer.Simplify(copy).same_as(copy));
    {
      Analyzer::Scope scope = analyzer.EnterConstraint(i < 8 && 0 <= i);
      EXPECT_TRUE(ir::IsConstInt(simplified(), 0));
    }
    EXPECT_TRUE(ir::StructuralEqual(simplified(), q));
    // Bindings made without a scope change the answer too.
    Analyzer::Scope scope = analyzer.OpenScope();
    analyzer.Bind(i, ir::Range{16, 8});
    EXPECT_TRUE(ir::IsConstInt(simplified(), 2));
  }
  EXPECT_TRUE(ir::StructuralEqual(simplified(), q));
  EXPECT_TRUE(ir::StructuralEqual(analyzer.Simplify(ir::FloorDiv(n, 8)), ir::FloorDiv(n, 8)));
}

}  // namespace
}  // namespace tunefarm::arith
