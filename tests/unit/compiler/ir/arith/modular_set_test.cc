#include "compiler/ir/arith/modular_set.h"

#include <gtest/gtest.h>

#include "compiler/ir/op.h"

namespace tunefarm::arith {
namespace {

using ir::Var;

TEST(ModularSetTest, LinearCombinations) {
  Var x("x"), y("y");
  ModularSetMap vars;
  EXPECT_EQ(EvalModularSet(x * 8 + 4, vars), (ModularSet{8, 4}));
  EXPECT_EQ(EvalModularSet(x * 8 + y * 12 + 2, vars), (ModularSet{4, 2}));
  EXPECT_EQ(EvalModularSet(x * 6 - 7, vars), (ModularSet{6, 5}));
  EXPECT_EQ(EvalModularSet(x + 1, vars), ModularSet::Everything());
  EXPECT_EQ(EvalModularSet(ir::IntImm(ir::DataType::Int(32), 7), vars), ModularSet::Const(7));
  // (4x + 2)(6y + 3) = 24xy + 12x + 12y + 6.
  EXPECT_EQ(EvalModularSet((x * 4 + 2) * (y * 6 + 3), vars), (ModularSet{12, 6}));
}

TEST(ModularSetTest, DivModAndBranches) {
  Var x("x"), v("v");
  ModularSetMap vars{{v.get(), ModularSet{16, 4}}};
  EXPECT_EQ(EvalModularSet(ir::FloorDiv(v, 4), vars), (ModularSet{4, 1}));
  EXPECT_EQ(EvalModularSet(ir::FloorMod(v, 8), vars), ModularSet::Const(4));
  EXPECT_EQ(EvalModularSet(ir::FloorMod(v, 6), vars), (ModularSet{2, 0}));
  EXPECT_EQ(EvalModularSet(ir::Min(v, x * 8), vars), (ModularSet{4, 0}));
  EXPECT_EQ(EvalModularSet(ir::Select(x < 0, v, v + 16), vars), (ModularSet{16, 4}));
  EXPECT_EQ(EvalModularSet(ir::RampNode::Make(v, 4, 4), vars), (ModularSet{4, 0}));
}

TEST(ModularSetTest, Predicates) {
  EXPECT_TRUE((ModularSet{8, 0}).IsMultipleOf(4));
  EXPECT_FALSE((ModularSet{8, 2}).IsMultipleOf(4));
  EXPECT_TRUE(ModularSet::Const(12).IsMultipleOf(4));
  EXPECT_FALSE(ModularSet::Everything().IsMultipleOf(2));
  EXPECT_EQ(ModularSet::Make(-6, 7), (ModularSet{6, 1}));
  EXPECT_EQ(ModularSet::Const(3).Union(ModularSet::Const(11)), (ModularSet{8, 3}));
}

}  // namespace
}  // namespace tunefarm::arith
