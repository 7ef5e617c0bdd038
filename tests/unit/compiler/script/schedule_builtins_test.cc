#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "absl/strings/str_join.h"
#include "compiler/passes/lower.h"
#include "tests/unit/compiler/script/script_test_support.h"

namespace tunefarm::script {
namespace {

constexpr const char* kMatmul = R"(
n = var("n")
A = placeholder((n, n), name="A")
B = placeholder((n, n), name="B")
k = reduce_axis((0, n), name="k")
C = compute((n, n), lambda i, j: sum(A[i, k] * B[j, k], axis=k), name="C")
s = create_schedule(C)
)";

std::string LeafNames(const schedule::Stage& stage) {
  std::vector<std::string> names;
  for (const ir::IterVar& iv : stage.leaf_iter_vars()) names.push_back(iv->var.name());
  return absl::StrJoin(names, " ");
}

const schedule::Stage& StageOf(const Evaluator& ev, const std::string& tensor) {
  const auto& s = Global(ev, "s").as<schedule::Schedule>();
  return s[Global(ev, tensor).as<te::Tensor>()];
}

TEST(ScheduleBuiltinsTest, TheIssueMatmulParsesAsWritten) {
  auto ev = RunOk(std::string(kMatmul) + R"(
xo, yo, xi, yi = s[C].tile(C.axis[0], C.axis[1], x_factor=32, y_factor=8)
ko, ki = s[C].split(C.reduce_axis[0], factor=4)
s[C].reorder(xo, yo, ko, xi, ki, yi)
s[C].vectorize(yi)
args = [A, B, C]
)");
  const schedule::Stage& c = StageOf(*ev, "C");
  EXPECT_EQ(LeafNames(c), "i.outer j.outer k.outer i.inner k.inner j.inner");
  const schedule::IterVarAttr* attr = c.attr_of(Global(*ev, "yi").as<ir::IterVar>());
  ASSERT_NE(attr, nullptr);
  EXPECT_EQ(attr->kind, ir::ForKind::kVectorized);
}

TEST(ScheduleBuiltinsTest, SplitByFactorAndByNparts) {
  auto ev = RunOk(std::string(kMatmul) + R"(
xo, xi = s[C].split(s[C].op.axis[0], factor=8)
yo, yi = s[C].split(C.op.axis[1], nparts=3)
)");
  EXPECT_EQ(LeafNames(StageOf(*ev, "C")), "i.outer i.inner j.outer j.inner k");
  const auto& rel = std::get<schedule::SplitRelation>(StageOf(*ev, "C").relations()[1]);
  EXPECT_FALSE(rel.factor.defined());
  EXPECT_EQ(ir::ToString(rel.nparts), "3");
}

TEST(ScheduleBuiltinsTest, FuseTakesTwoOrMoreAxesInOrder) {
  auto ev = RunOk(R"(
A = placeholder((4, 5, 6), name="A")
B = compute((4, 5, 6), lambda i, j, l: A[i, j, l] * 2.0, name="B")
s = create_schedule([B.op])
f = s[B].fuse(B.op.axis[0], B.op.axis[1], B.op.axis[2])
)");
  EXPECT_EQ(LeafNames(StageOf(*ev, "B")), "i.j.fused.l.fused");
}

TEST(ScheduleBuiltinsTest, BindParallelUnrollPragma) {
  auto ev = RunOk(R"(
n = var("n")
A = placeholder((n,), name="A")
B = compute((n,), lambda i: A[i] + 1.0, name="B")
s = create_schedule(B)
bx, tx = s[B].split(B.op.axis[0], factor=64)
s[B].bind(bx, thread_axis("blockIdx.x"))
s[B].bind(tx, thread_axis((0, 64), "threadIdx.x"))
C = compute((n, 8), lambda i, j: A[i] * 2.0, name="C")
s2 = create_schedule(C)
s2[C].parallel(C.op.axis[0])
s2[C].unroll(C.op.axis[1])
s2[C].pragma(C.op.axis[0], "auto_unroll_max_step")
)");
  const schedule::Stage& b = StageOf(*ev, "B");
  const schedule::IterVarAttr* attr = b.attr_of(Global(*ev, "bx").as<ir::IterVar>());
  ASSERT_NE(attr, nullptr);
  EXPECT_EQ(attr->bind_thread->thread_tag, "blockIdx.x");
  const auto& s2 = Global(*ev, "s2").as<schedule::Schedule>();
  const auto& c = Global(*ev, "C").as<te::Tensor>();
  const schedule::IterVarAttr* c0 = s2[c].attr_of(c.op()->axis[0]);
  ASSERT_NE(c0, nullptr);
  EXPECT_EQ(c0->kind, ir::ForKind::kParallel);
  EXPECT_EQ(c0->pragmas, std::vector<std::string>{"auto_unroll_max_step"});
  EXPECT_EQ(s2[c].attr_of(c.op()->axis[1])->kind, ir::ForKind::kUnrolled);
}

TEST(ScheduleBuiltinsTest, ComputeAtInlineAndRoot) {
  auto ev = RunOk(R"(
n = var("n")
A = placeholder((n,), name="A")
B = compute((n,), lambda i: A[i] + 1.0, name="B")
C = compute((n,), lambda i: B[i] * 2.0, name="C")
D = compute((n,), lambda i: C[i] - 1.0, name="D")
s = create_schedule(D.op)
s[B].compute_inline()
s[C].compute_at(s[D], D.op.axis[0])
s[C].compute_root()
s[C].compute_at(s[D.op], D.op.axis[0])
)");
  EXPECT_EQ(StageOf(*ev, "B").attach_type(), schedule::AttachType::kInline);
  EXPECT_EQ(StageOf(*ev, "C").attach_type(), schedule::AttachType::kScope);
  EXPECT_EQ(StageOf(*ev, "C").attach_stage(), &StageOf(*ev, "D"));
}

TEST(ScheduleBuiltinsTest, CacheReadAndWriteReturnTensorsWithTheirOwnStages) {
  auto ev = RunOk(std::string(kMatmul) + R"(
AA = s.cache_read(A, "shared", [C])
CL = s.cache_write(C, "local")
cl_axes = s[CL].op.axis
c_axes = s[C].op.axis
current_op = s[C].op
s[CL].compute_at(s[C], s[C].op.axis[1])
s[AA].compute_at(s[CL], s[CL].op.reduce_axis[0])
)");
  const auto& aa = Global(*ev, "AA").as<te::Tensor>();
  EXPECT_EQ(aa.buffer()->scope, "shared");
  EXPECT_EQ(Global(*ev, "CL").as<te::Tensor>().buffer()->scope, "local");
  // s[C].op is C's current op (a copy from CL after cache_write), not the definition the
  // tensor handle C keeps; its axes are the ones the stage's primitives accept.
  const te::Operation& current = Global(*ev, "current_op").as<te::Operation>();
  EXPECT_NE(current, Global(*ev, "C").as<te::Tensor>().op());
  EXPECT_EQ(current, StageOf(*ev, "C").op());
  const ir::IterVar& c0 = Global(*ev, "c_axes").items()[0].as<ir::IterVar>();
  EXPECT_TRUE(c0.same_as(StageOf(*ev, "C").op()->axis[0]));
  const ir::IterVar& cl0 = Global(*ev, "cl_axes").items()[0].as<ir::IterVar>();
  EXPECT_TRUE(cl0.same_as(StageOf(*ev, "CL").op()->axis[0]));
  EXPECT_FALSE(cl0.same_as(c0));
}

TEST(ScheduleBuiltinsTest, RunScriptReturnsScheduleArgsAndVars) {
  absl::StatusOr<ScriptResult> r = RunScript(std::string(kMatmul) + R"(
m = var("m")
unused = var("q")
args = [A, B, C]
)",
                                             "t.te");
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_EQ(r->args.size(), 3u);
  EXPECT_EQ(r->args[2].name(), "C");
  ASSERT_EQ(r->symbolic_vars.size(), 3u);
  EXPECT_EQ(r->symbolic_vars[0].name(), "n");
  EXPECT_EQ(r->symbolic_vars[2].name(), "q");
  EXPECT_TRUE(r->schedule.Contains(r->args[0]));
}

TEST(ScheduleBuiltinsTest, WithoutGlobalSTheLastScheduleIsUsed) {
  absl::StatusOr<ScriptResult> r = RunScript(R"(
A = placeholder((4,), name="A")
B = compute((4,), lambda i: A[i], name="B")
sched = create_schedule(B)
args = [A, B]
)",
                                             "t.te");
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_TRUE(r->schedule.Contains(r->args[1]));
}

}  // namespace
}  // namespace tunefarm::script

namespace tunefarm::script {
namespace {

constexpr const char* kInt8Matmul = R"(
A = placeholder((4, 64), dtype="uint8", name="A")
Bp = placeholder((2, 16, 16, 4), dtype="int8", name="Bp")
k = reduce_axis((0, 64), name="k")
C = compute((4, 32), lambda i, j: sum(A[i, k].astype("int32") *
            Bp[j // 16, k // 4, j % 16, k % 4].astype("int32"), axis=k), name="C")
s = create_schedule(C)
jo, ji = s[C].split(C.op.axis[1], factor=16)
ko, ki = s[C].split(C.op.reduce_axis[0], factor=4)
s[C].reorder(C.op.axis[0], jo, ko, ji, ki)
)";

TEST(ScheduleBuiltinsTest, TensorizeWithTheInt8DotIntrinsicLowersToIt) {
  auto ev = RunOk(std::string(kInt8Matmul) + R"(
s[C].tensorize(ji, dot_int8_intrin(16, "uint8", "int8"))
args = [A, Bp, C]
)");
  const auto& s = Global(*ev, "s").as<schedule::Schedule>();
  const auto& c = Global(*ev, "C").as<te::Tensor>();
  std::vector<te::Tensor> args = {Global(*ev, "A").as<te::Tensor>(),
                                  Global(*ev, "Bp").as<te::Tensor>(), c};
  absl::StatusOr<ir::PrimFunc> f = passes::Lower(s, args, "mm");
  ASSERT_TRUE(f.ok()) << f.status();
  EXPECT_THAT(ir::ToString(f->body), ::testing::HasSubstr("dot4_add("));
}

TEST(ScheduleBuiltinsTest, TensorizeNeedsATensorIntrinsic) {
  EXPECT_THAT(ScriptError(std::string(kInt8Matmul) + "s[C].tensorize(ji, 16)\n"),
              ::testing::HasSubstr("intrin must be a tensor intrinsic, got an integer"));
  EXPECT_THAT(ScriptError(std::string(kInt8Matmul) + "t = dot_int8_intrin(12)\n"),
              ::testing::HasSubstr("lanes must be a power of two"));
}

}  // namespace
}  // namespace tunefarm::script
