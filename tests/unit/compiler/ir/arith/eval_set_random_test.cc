// Randomized soundness check of interval analysis: every sampled value of a random expression
// lies in the set EvalSet computes for it, including sets with symbolic bounds (a variable
// ranging over [0, z) with z a fixed symbol), and the analyzer's constant bounds hold too.
#include <gtest/gtest.h>
#include <sstream>

#include "compiler/ir/arith/analyzer.h"
#include "compiler/ir/arith/interval_set.h"
#include "compiler/ir/printer.h"
#include "tests/unit/compiler/ir/arith/random_expr.h"

namespace tunefarm::arith {
namespace {

using ir::Expr;
using ir::Var;
using testing::Assignment;
using testing::RandomExprGen;
using testing::RefEvaluator;

std::string Describe(const Expr& e, const IntervalSet& s, const Assignment& a,
                     const std::vector<Var>& vars) {
  std::ostringstream os;
  os << "expr: " << e << "\nset: [" << (s.min.defined() ? ir::ToString(s.min) : "-inf") << ", "
     << (s.max.defined() ? ir::ToString(s.max) : "+inf") << "]\nat";
  for (const auto& v : vars) os << " " << v.name() << "=" << a.at(v.get());
  return os.str();
}

TEST(EvalSetRandomTest, SampledValuesLieInTheSet) {
  Var x("x"), y("y"), z("z");
  std::vector<Var> vars{x, y, z};
  RandomExprGen gen(vars, 4242);
  for (int n = 0; n < 1500; ++n) {
    Expr e = gen.Int(4);
    int64_t xlo = gen.Uniform(-10, 10), xhi = xlo + gen.Uniform(0, 20);
    // Mode 0: all three relaxed; 1: z fixed; 2: y in [0, z) with z a fixed positive symbol.
    int mode = n % 3;
    int64_t ylo = gen.Uniform(-10, 10), yhi = ylo + gen.Uniform(0, 20);
    VarIntervalMap dom;
    dom[x.get()] = {static_cast<int>(xlo), static_cast<int>(xhi)};
    dom[y.get()] = mode == 2 ? IntervalSet::FromRange({0, z})
                             : IntervalSet{static_cast<int>(ylo), static_cast<int>(yhi)};
    if (mode == 0) dom[z.get()] = {-5, 5};
    IntervalSet s = EvalSet(e, dom);
    for (int k = 0; k < 20; ++k) {
      Assignment a;
      a[z.get()] = mode == 0 ? gen.Uniform(-5, 5) : gen.Uniform(mode == 2 ? 1 : -20, 20);
      a[x.get()] = gen.Uniform(xlo, xhi);
      a[y.get()] = mode == 2 ? gen.Uniform(0, a[z.get()] - 1) : gen.Uniform(ylo, yhi);
      RefEvaluator ev(a);
      auto v = ev.Eval(e);
      if (!v || ev.overflowed()) continue;
      if (s.min.defined()) {
        auto lo = RefEvaluator(a).Eval(s.min);
        ASSERT_TRUE(lo.has_value()) << Describe(e, s, a, vars);
        ASSERT_LE(*lo, *v) << Describe(e, s, a, vars);
      }
      if (s.max.defined()) {
        auto hi = RefEvaluator(a).Eval(s.max);
        ASSERT_TRUE(hi.has_value()) << Describe(e, s, a, vars);
        ASSERT_GE(*hi, *v) << Describe(e, s, a, vars);
      }
    }
  }
}

TEST(EvalSetRandomTest, AnalyzerConstBoundsHold) {
  Var x("x"), y("y"), z("z");
  std::vector<Var> vars{x, y, z};
  RandomExprGen gen(vars, 99);
  for (int n = 0; n < 1000; ++n) {
    Expr e = gen.Int(4);
    Analyzer analyzer;
    std::vector<std::pair<int64_t, int64_t>> ranges;
    for (const auto& v : vars) {
      int64_t lo = gen.Uniform(-10, 10), hi = lo + gen.Uniform(0, 20);
      analyzer.Bind(v, ir::Range{static_cast<int>(lo), static_cast<int>(hi - lo + 1)});
      ranges.emplace_back(lo, hi);
    }
    Analyzer::ConstBound b = analyzer.GetConstBound(e);
    for (int k = 0; k < 20; ++k) {
      Assignment a;
      for (size_t i = 0; i < vars.size(); ++i) {
        a[vars[i].get()] = gen.Uniform(ranges[i].first, ranges[i].second);
      }
      RefEvaluator ev(a);
      auto v = ev.Eval(e);
      if (!v || ev.overflowed()) continue;
      ASSERT_LE(b.min, *v) << e;
      ASSERT_GE(b.max, *v) << e;
    }
  }
}

}  // namespace
}  // namespace tunefarm::arith
