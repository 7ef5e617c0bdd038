// ExpectSimplifies(before, after): the rule-table check of the simplifier tests (after Halide's
// simplify tests), comparing structurally and printing both sides on failure.
#pragma once

#include <gtest/gtest.h>

#include "compiler/ir/arith/analyzer.h"
#include "compiler/ir/printer.h"
#include "compiler/ir/simplify/simplify.h"
#include "compiler/ir/structural_equal.h"

namespace tunefarm::arith::testing {

// Builders of the rule tables' expressions (the node constructors, without their checks' noise).
inline ir::Expr Add(ir::Expr a, ir::Expr b) { return ir::AddNode::Make(a, b); }
inline ir::Expr Sub(ir::Expr a, ir::Expr b) { return ir::SubNode::Make(a, b); }
inline ir::Expr Mul(ir::Expr a, ir::Expr b) { return ir::MulNode::Make(a, b); }

inline ::testing::AssertionResult SimplifiesTo(const ir::Expr& before, const ir::Expr& after,
                                               Analyzer* analyzer) {
  ir::Expr got = Simplify(before, analyzer);
  if (ir::StructuralEqual(got, after) && got.dtype() == after.dtype()) {
    return ::testing::AssertionSuccess();
  }
  return ::testing::AssertionFailure()
         << "\n  simplify(" << before << ")\n  gave     " << got << " (" << got.dtype().ToString()
         << ")\n  expected " << after << " (" << after.dtype().ToString() << ")";
}

}  // namespace tunefarm::arith::testing

#define ExpectSimplifies(before, after) \
  EXPECT_TRUE(::tunefarm::arith::testing::SimplifiesTo((before), (after), nullptr))
#define ExpectSimplifiesWith(analyzer, before, after) \
  EXPECT_TRUE(::tunefarm::arith::testing::SimplifiesTo((before), (after), (analyzer)))
