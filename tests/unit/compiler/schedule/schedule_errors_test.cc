// Misused primitives are errors that name the primitive, the stage and the axis.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "compiler/passes/lower.h"
#include "compiler/schedule/schedule.h"
#include "tests/unit/compiler/schedule/workloads.h"

namespace tunefarm::schedule {
namespace {

using ::testing::HasSubstr;

void ExpectError(const absl::Status& status, const std::vector<std::string>& parts) {
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << status;
  for (const auto& part : parts) EXPECT_THAT(std::string(status.message()), HasSubstr(part));
}

TEST(ScheduleErrorTest, ReorderWithForeignAxis) {
  testing::Matmul w;
  testing::Chain other;
  Schedule s = Schedule::Create({w.c.op()});
  s[w.c].reorder({w.c.op()->axis[1], other.b.op()->axis[0]});
  ExpectError(s.error(), {"reorder", "stage C", "axis i", "does not belong"});
}

TEST(ScheduleErrorTest, FuseOfNonAdjacentAxes) {
  testing::Matmul w;
  Schedule s = Schedule::Create({w.c.op()});
  ir::IterVar fused;
  s[w.c].fuse(w.c.op()->axis[0], w.c.op()->reduce_axis[0], &fused);
  ExpectError(s.error(), {"fuse", "stage C"});
  Schedule s2 = Schedule::Create({w.c.op()});
  s2[w.c].reorder({w.c.op()->axis[0], w.c.op()->reduce_axis[0], w.c.op()->axis[1]});
  s2[w.c].fuse(w.c.op()->axis[0], w.c.op()->axis[1], &fused);
  ExpectError(s2.error(), {"fuse", "stage C", "not adjacent"});
}

TEST(ScheduleErrorTest, SplittingAnAxisTwice) {
  testing::Matmul w;
  Schedule s = Schedule::Create({w.c.op()});
  ir::IterVar o, i;
  s[w.c].split(w.c.op()->axis[0], 4, &o, &i);
  s[w.c].split(w.c.op()->axis[0], 2, &o, &i);
  ExpectError(s.error(), {"split", "stage C", "axis i", "already split"});
}

TEST(ScheduleErrorTest, ComputeAtCycle) {
  testing::Chain w;
  Schedule s = Schedule::Create({w.d.op()});
  s[w.b].compute_at(s[w.c], w.c.op()->axis[0]);
  s[w.c].compute_at(s[w.b], w.b.op()->axis[0]);
  ExpectError(s.error(), {"compute_at", "stage C", "cycle"});
}

TEST(ScheduleErrorTest, InliningAReduction) {
  testing::RowMax w;
  Schedule s = Schedule::Create({w.m.op()});
  s[w.m].compute_inline();
  ExpectError(s.error(), {"compute_inline", "stage M", "reduction"});
}

TEST(ScheduleErrorTest, VectorizingASymbolicExtent) {
  testing::Matmul w;
  Schedule s = Schedule::Create({w.c.op()});
  s[w.c].vectorize(w.c.op()->axis[1]);
  ASSERT_TRUE(s.error().ok());
  auto f = passes::Lower(s, {w.a, w.b, w.c}, "f");
  ExpectError(f.status(), {"vectorize", "stage C", "axis j", "not a constant"});
}

TEST(ScheduleErrorTest, ZeroSplitFactor) {
  testing::Matmul w;
  Schedule s = Schedule::Create({w.c.op()});
  ir::IterVar o, i;
  s[w.c].split(w.c.op()->axis[1], 0, &o, &i);
  ExpectError(s.error(), {"split", "stage C", "axis j", "positive"});
}

TEST(ScheduleErrorTest, ConsumerOutsideTheProducersLoop) {
  testing::Chain w;
  Schedule s = Schedule::Create({w.d.op()});
  s[w.b].compute_at(s[w.c], w.c.op()->axis[0]);  // but D reads B too, outside C's loops
  auto f = passes::Lower(s, {w.a, w.d}, "f");
  ExpectError(f.status(), {"compute_at", "stage B", "consumer D"});
}

TEST(ScheduleErrorTest, AttachLoopSplitAfterComputeAt) {
  testing::Chain w;
  Schedule s = Schedule::Create({w.d.op()});
  s[w.c].compute_at(s[w.d], w.d.op()->axis[0]);
  ir::IterVar o, i;
  s[w.d].split(w.d.op()->axis[0], 2, &o, &i);
  auto f = passes::Lower(s, {w.a, w.d}, "f");
  ExpectError(f.status(), {"compute_at", "stage C", "loop i of D", "split or fused afterwards"});
}

TEST(ScheduleErrorTest, AttachToAStageInlinedLater) {
  testing::Chain w;
  Schedule s = Schedule::Create({w.d.op()});
  s[w.b].compute_at(s[w.c], w.c.op()->axis[0]);
  s[w.c].compute_inline();  // refused: B is computed at one of C's loops
  ExpectError(s.error(), {"compute_inline", "stage C", "stage B"});
  Schedule s2 = Schedule::Create({w.d.op()});
  s2[w.c].compute_inline();
  s2[w.b].compute_at(s2[w.c], w.c.op()->axis[0]);
  ExpectError(s2.error(), {"compute_at", "stage B", "C is inlined"});
}

TEST(ScheduleErrorTest, MissingPlaceholderArgument) {
  testing::Matmul w;
  Schedule s = Schedule::Create({w.c.op()});
  auto f = passes::Lower(s, {w.a, w.c}, "f");
  ExpectError(f.status(), {"placeholder B", "args"});
}

}  // namespace
}  // namespace tunefarm::schedule
