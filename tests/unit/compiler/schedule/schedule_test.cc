// Each schedule primitive computes the same numbers as the plain definition.
#include "compiler/schedule/schedule.h"

#include <gtest/gtest.h>

#include "tests/unit/compiler/schedule/reference_check.h"
#include "tests/unit/compiler/schedule/workloads.h"

namespace tunefarm::schedule {
namespace {

constexpr double kScheduleTolerance = 1e-4;

using testing::Bindings;
using testing::MaxErrorAgainstReference;

void ExpectMatches(const Schedule& s, const std::vector<te::Tensor>& args, const Bindings& bind) {
  absl::StatusOr<double> err = MaxErrorAgainstReference(s, args, bind);
  ASSERT_TRUE(err.ok()) << err.status();
  EXPECT_LE(*err, kScheduleTolerance);
}

TEST(ScheduleTest, SplitByFactorThatDoesNotDivide) {
  testing::Matmul w;
  Schedule s = Schedule::Create({w.c.op()});
  ir::IterVar o, i;
  s[w.c].split(w.c.op()->axis[0], 8, &o, &i);
  ExpectMatches(s, {w.a, w.b, w.c}, {{w.n.get(), 19}});
}

TEST(ScheduleTest, SplitByNparts) {
  testing::Matmul w;
  Schedule s = Schedule::Create({w.c.op()});
  ir::IterVar o, i;
  s[w.c].split_by_nparts(w.c.op()->axis[1], 3, &o, &i);
  ExpectMatches(s, {w.a, w.b, w.c}, {{w.n.get(), 17}});
}

TEST(ScheduleTest, TileReorderVectorizeUnrollParallel) {
  testing::Matmul w;
  Schedule s = Schedule::Create({w.c.op()});
  Stage& c = s[w.c];
  ir::IterVar xo, yo, xi, yi, ko, ki;
  c.tile(w.c.op()->axis[0], w.c.op()->axis[1], 4, 8, &xo, &yo, &xi, &yi);
  c.split(w.c.op()->reduce_axis[0], 4, &ko, &ki);
  c.reorder({xo, yo, ko, xi, ki, yi});
  c.vectorize(yi).unroll(ki).parallel(xo);
  ExpectMatches(s, {w.a, w.b, w.c}, {{w.n.get(), 13}});
}

TEST(ScheduleTest, FuseAndSplitAgain) {
  testing::Chain w;
  Schedule s = Schedule::Create({w.d.op()});
  ir::IterVar fused, o, i;
  s[w.d].fuse(w.d.op()->axis[0], w.d.op()->axis[1], &fused).split(fused, 16, &o, &i);
  ExpectMatches(s, {w.a, w.d}, {{w.m.get(), 5}});
}

TEST(ScheduleTest, ComputeAtAndInline) {
  testing::Chain w;
  Schedule s = Schedule::Create({w.d.op()});
  ir::IterVar o, i;
  s[w.d].split(w.d.op()->axis[0], 2, &o, &i);
  s[w.c].compute_inline();
  s[w.b].compute_at(s[w.d], o);
  ExpectMatches(s, {w.a, w.d}, {{w.m.get(), 7}});
}

TEST(ScheduleTest, ConvWithInlinedPaddingAndCaches) {
  testing::Conv2d w;
  Schedule s = Schedule::Create({w.out.op()});
  s[w.pad].compute_inline();
  auto shared = s.cache_read(w.pad, "shared", {w.out});
  ASSERT_TRUE(shared.ok()) << shared.status();
  auto local = s.cache_write(w.out, "local");
  ASSERT_TRUE(local.ok()) << local.status();
  ir::IterVar yo, yi;
  s[w.out].split(w.out.op()->axis[1], 3, &yo, &yi);
  s[*local].compute_at(s[w.out], yo);
  s[*shared].compute_at(s[*local], local->op()->reduce_axis[0]);
  ExpectMatches(s, {w.data, w.weight, w.out}, {});
}

TEST(ScheduleTest, GpuBindingWithSharedCooperativeFetch) {
  testing::Matmul w;
  Schedule s = Schedule::Create({w.c.op()});
  auto aa = s.cache_read(w.a, "shared", {w.c});
  ASSERT_TRUE(aa.ok());
  ir::IterVar bx = te::thread_axis({}, "blockIdx.x"), tx = te::thread_axis({0, 4}, "threadIdx.x");
  ir::IterVar xo, xi, ko, ki;
  Stage& c = s[w.c];
  c.split(w.c.op()->axis[0], 4, &xo, &xi);
  c.split(w.c.op()->reduce_axis[0], 4, &ko, &ki);
  c.reorder({xo, xi, w.c.op()->axis[1], ko, ki});
  c.bind(xo, bx).bind(xi, tx);
  s[*aa].compute_at(c, ko);
  ir::IterVar ao, ai;
  s[*aa].split(aa->op()->axis[0], 4, &ao, &ai);
  s[*aa].bind(ai, tx);
  ExpectMatches(s, {w.a, w.b, w.c}, {{w.n.get(), 16}});
}

TEST(ScheduleTest, ReductionWithMaxAndSplitReduceAxis) {
  testing::RowMax w;
  Schedule s = Schedule::Create({w.m.op()});
  ir::IterVar ko, ki;
  s[w.m].split(w.m.op()->reduce_axis[0], 4, &ko, &ki);
  ExpectMatches(s, {w.a, w.m}, {{w.n.get(), 9}});
}

}  // namespace
}  // namespace tunefarm::schedule
