// Randomized check of the simplifier: random int32 expressions (and conditions) over three
// variables, simplified with and without known variable ranges, must keep their value at random
// points in those ranges, keep their type, and be a fixed point of the simplifier.
#include <gtest/gtest.h>
#include <sstream>

#include "compiler/ir/arith/analyzer.h"
#include "compiler/ir/printer.h"
#include "compiler/ir/simplify/simplify.h"
#include "compiler/ir/structural_equal.h"
#include "tests/unit/compiler/ir/arith/random_expr.h"

namespace tunefarm::arith {
namespace {

using ir::Expr;
using ir::Var;
using testing::Assignment;
using testing::RandomExprGen;
using testing::RefEvaluator;

struct VarRange {
  int64_t lo;
  int64_t hi;
};

std::string Describe(const Expr& e, const Expr& s, const std::vector<Var>& vars,
                     const Assignment& a) {
  std::ostringstream os;
  os << "original:   " << e << "\nsimplified: " << s << "\nat";
  for (const auto& v : vars) os << " " << v.name() << "=" << a.at(v.get());
  return os.str();
}

// Simplifies `e` under `ranges` (empty: no knowledge) and compares values at `samples` points;
// counts the points compared in `*checked` and the expressions the simplifier changed.
void CheckOne(const Expr& e, const std::vector<Var>& vars, const std::vector<VarRange>& ranges,
              RandomExprGen& gen, int samples, int* checked, int* changed) {
  Analyzer analyzer;
  for (size_t i = 0; i < ranges.size(); ++i) {
    analyzer.Bind(vars[i], ir::Range{static_cast<int>(ranges[i].lo),
                                     static_cast<int>(ranges[i].hi - ranges[i].lo + 1)});
  }
  Expr s = Simplify(e, &analyzer);
  ASSERT_EQ(s.dtype(), e.dtype()) << e;
  if (!ir::StructuralEqual(s, e)) ++*changed;
  Expr again = Simplify(s, &analyzer);
  EXPECT_TRUE(ir::StructuralEqual(again, s)) << "not a fixed point: " << e << "\n"
                                             << s << "\n"
                                             << again;
  for (int k = 0; k < samples; ++k) {
    Assignment a;
    for (size_t i = 0; i < vars.size(); ++i) {
      bool wide = ranges.empty() && k % 4 == 3;
      a[vars[i].get()] = ranges.empty() ? gen.Uniform(wide ? -1000 : -20, wide ? 1000 : 20)
                                        : gen.Uniform(ranges[i].lo, ranges[i].hi);
    }
    RefEvaluator before(a);
    auto expected = before.Eval(e);
    if (!expected || before.overflowed()) continue;
    RefEvaluator after(a);
    auto actual = after.Eval(s);
    ASSERT_TRUE(actual.has_value()) << Describe(e, s, vars, a);
    ASSERT_EQ(*expected, *actual) << Describe(e, s, vars, a);
    ++*checked;
  }
}

TEST(SimplifyRandomTest, IntegerExpressionsKeepTheirValues) {
  constexpr int kMinChecked = 30000, kMinChanged = 1000;
  std::vector<Var> vars{Var("x"), Var("y"), Var("z")};
  RandomExprGen gen(vars, 20240601);
  int checked = 0, changed = 0;
  for (int n = 0; n < 2000; ++n) {
    Expr e = gen.Int(n % 3 == 0 ? 5 : 4);
    std::vector<VarRange> ranges;
    if (n % 2 == 1) {
      for (size_t i = 0; i < vars.size(); ++i) {
        int64_t lo = gen.Uniform(-12, 12);
        ranges.push_back({lo, lo + gen.Uniform(0, 24)});
      }
    }
    CheckOne(e, vars, ranges, gen, 20, &checked, &changed);
    if (HasFatalFailure()) return;
  }
  // Guards against a generator or evaluator that silently skips everything.
  EXPECT_GT(checked, kMinChecked) << "changed " << changed;
  EXPECT_GT(changed, kMinChanged) << "checked " << checked;
}

TEST(SimplifyRandomTest, ConditionsKeepTheirValues) {
  constexpr int kMinChecked = 9000, kMinChanged = 300;
  std::vector<Var> vars{Var("x"), Var("y"), Var("z")};
  RandomExprGen gen(vars, 777);
  int checked = 0, changed = 0;
  for (int n = 0; n < 600; ++n) {
    Expr e = gen.Bool(4);
    std::vector<VarRange> ranges;
    if (n % 2 == 1) {
      for (size_t i = 0; i < vars.size(); ++i) {
        int64_t lo = gen.Uniform(-8, 8);
        ranges.push_back({lo, lo + gen.Uniform(0, 16)});
      }
    }
    CheckOne(e, vars, ranges, gen, 20, &checked, &changed);
    if (HasFatalFailure()) return;
  }
  // Guards against a generator or evaluator that silently skips everything.
  EXPECT_GT(checked, kMinChecked) << "changed " << changed;
  EXPECT_GT(changed, kMinChanged) << "checked " << checked;
}

// Under an assumed random condition, values must agree wherever the condition holds (points are
// drawn until 20 satisfy it). This exercises the bounds that constraints derive.
TEST(SimplifyRandomTest, ValuesAgreeWhereTheAssumedConditionHolds) {
  std::vector<Var> vars{Var("x"), Var("y"), Var("z")};
  RandomExprGen gen(vars, 31337);
  int checked = 0;
  for (int n = 0; n < 800; ++n) {
    Analyzer analyzer;
    std::vector<VarRange> ranges;
    for (const auto& v : vars) {
      int64_t lo = gen.Uniform(-12, 12), hi = lo + gen.Uniform(0, 30);
      if (n % 2 == 0) {
        lo = -30;
        hi = 30;
      } else {
        analyzer.Bind(v, ir::Range{static_cast<int>(lo), static_cast<int>(hi - lo + 1)});
      }
      ranges.push_back({lo, hi});
    }
    Expr cond = gen.Bool(2 + n % 2);
    Expr e = n % 3 == 0 ? gen.Bool(4) : gen.Int(4);
    Expr s;
    {
      Analyzer::Scope scope = analyzer.EnterConstraint(cond);
      s = Simplify(e, &analyzer);
    }
    int hits = 0;
    for (int k = 0; k < 200 && hits < 20; ++k) {
      Assignment a;
      for (size_t i = 0; i < vars.size(); ++i) {
        a[vars[i].get()] = gen.Uniform(ranges[i].lo, ranges[i].hi);
      }
      RefEvaluator holds(a);
      auto c = holds.Eval(cond);
      if (!c || holds.overflowed() || *c == 0) continue;
      ++hits;
      RefEvaluator before(a);
      auto expected = before.Eval(e);
      if (!expected || before.overflowed()) continue;
      auto actual = RefEvaluator(a).Eval(s);
      ASSERT_TRUE(actual.has_value()) << "assuming " << cond << "\n" << Describe(e, s, vars, a);
      ASSERT_EQ(*expected, *actual) << "assuming " << cond << "\n" << Describe(e, s, vars, a);
      ++checked;
    }
  }
  EXPECT_GT(checked, 8000);
}

}  // namespace
}  // namespace tunefarm::arith
