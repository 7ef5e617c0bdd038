// Two spellings of one schedule lower to structurally equal IR.
#include <gtest/gtest.h>

#include "compiler/ir/printer.h"
#include "compiler/ir/structural_equal.h"
#include "compiler/passes/lower.h"
#include "tests/unit/compiler/schedule/workloads.h"

namespace tunefarm::schedule {
namespace {

ir::PrimFunc LowerOrDie(const Schedule& s, const std::vector<te::Tensor>& args) {
  absl::StatusOr<ir::PrimFunc> f = passes::Lower(s, args, "f");
  EXPECT_TRUE(f.ok()) << f.status();
  return f.ok() ? *f : ir::PrimFunc{};
}

TEST(StructuralEquivalenceTest, TileIsSplitSplitReorder) {
  testing::Matmul w;
  Schedule tiled = Schedule::Create({w.c.op()});
  ir::IterVar xo, yo, xi, yi;
  tiled[w.c].tile(w.c.op()->axis[0], w.c.op()->axis[1], 8, 4, &xo, &yo, &xi, &yi);
  Schedule split = Schedule::Create({w.c.op()});
  ir::IterVar xo2, yo2, xi2, yi2;
  split[w.c].split(w.c.op()->axis[0], 8, &xo2, &xi2).split(w.c.op()->axis[1], 4, &yo2, &yi2);
  split[w.c].reorder({xo2, yo2, xi2, yi2});
  ir::PrimFunc a = LowerOrDie(tiled, {w.a, w.b, w.c});
  ir::PrimFunc b = LowerOrDie(split, {w.a, w.b, w.c});
  EXPECT_TRUE(ir::StructuralEqual(a.body, b.body)) << a.body << "\nvs\n" << b.body;
}

TEST(StructuralEquivalenceTest, SplitByNpartsMatchesTheEquivalentFactor) {
  testing::Chain w;
  Schedule by_nparts = Schedule::Create({w.b.op()});
  ir::IterVar o, i;
  by_nparts[w.b].split_by_nparts(w.b.op()->axis[1], 1, &o, &i);
  Schedule unsplit = Schedule::Create({w.b.op()});
  // One part covers the whole axis: the loop over it disappears and the code is unchanged.
  ir::PrimFunc a = LowerOrDie(by_nparts, {w.a, w.b});
  ir::PrimFunc b = LowerOrDie(unsplit, {w.a, w.b});
  EXPECT_TRUE(ir::StructuralEqual(a.body, b.body, /*map_free_vars=*/true)) << a.body << "\nvs\n"
                                                                           << b.body;
}

TEST(StructuralEquivalenceTest, DifferentSchedulesDiffer) {
  testing::Matmul w;
  Schedule s1 = Schedule::Create({w.c.op()});
  Schedule s2 = Schedule::Create({w.c.op()});
  ir::IterVar o, i;
  s2[w.c].split(w.c.op()->axis[0], 8, &o, &i);
  EXPECT_FALSE(ir::StructuralEqual(LowerOrDie(s1, {w.a, w.b, w.c}).body,
                                   LowerOrDie(s2, {w.a, w.b, w.c}).body));
}

}  // namespace
}  // namespace tunefarm::schedule
