#include "compiler/passes/pipeline.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "compiler/ir/printer.h"
#include "tests/unit/compiler/ir_types.h"
#include "tests/unit/compiler/passes/interp_check.h"

namespace tunefarm::passes {
namespace {

using namespace ir;               // NOLINT: tests build IR by hand.
using namespace passes::testing;  // NOLINT
using ::testing::ElementsAre;

using ir_fixtures::kF32;

std::vector<std::string> Names(const std::vector<Pass>& passes) {
  std::vector<std::string> names;
  for (const auto& p : passes) names.push_back(p.name);
  return names;
}

Pass Identity(const std::string& name, const char* phase) {
  return Pass{name, phase, [](PrimFunc f) -> absl::StatusOr<PrimFunc> { return f; }, {}};
}

TEST(PipelineTest, PassOrder) {
  EXPECT_THAT(Names(LoweringPipeline()),
              ElementsAre("storage_flatten", "partition_vector_tails", "vectorize_loops",
                          "inject_virtual_thread", "unroll_loops", "thread_sync", "simplify",
                          "skip_padding_taps", "remove_no_op"));
}

TEST(PipelineTest, ExtraPassesGoToTheirInsertionPoints) {
  auto passes = LoweringPipeline({Identity("late", kPhaseBeforeCodegen),
                                  Identity("early1", kPhaseAfterFlatten),
                                  Identity("early2", kPhaseAfterFlatten)});
  ASSERT_TRUE(passes.ok()) << passes.status();
  EXPECT_THAT(Names(*passes),
              ElementsAre("storage_flatten", "early1", "early2", "partition_vector_tails",
                          "vectorize_loops", "inject_virtual_thread", "unroll_loops", "thread_sync",
                          "simplify", "skip_padding_taps", "remove_no_op", "late"));
  auto bad = LoweringPipeline({Identity("odd", kPhaseTransform)});
  EXPECT_EQ(bad.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(bad.status().message(), ::testing::HasSubstr("pass odd has phase 'transform'"));
}

TEST(PipelineTest, VirtualThreadSharedTileKernelComputesTheProduct) {
  TileShape shape{.tile = 4, .blocks = 2, .k_tiles = 3, .vthreads = 2};
  auto f = RunPasses(SharedTileMatmul(shape), LoweringPipeline(), PassOptions{});
  ASSERT_TRUE(f.ok()) << f.status();
  std::string text = ToString(f->body);
  EXPECT_EQ(text.find("virtual_thread"), std::string::npos) << text;
  EXPECT_EQ(CountBarriers(f->body), 2) << text;
  EXPECT_EQ(MatmulMismatch(*f, shape), -1) << text;
}

TEST(PipelineTest, WithoutThreadSyncTheKernelIsWrong) {
  TileShape shape{.tile = 4, .blocks = 2, .k_tiles = 3, .vthreads = 2};
  PassOptions opts;
  opts.disabled_passes = {"thread_sync"};
  auto f = RunPasses(SharedTileMatmul(shape), LoweringPipeline(), opts);
  ASSERT_TRUE(f.ok()) << f.status();
  EXPECT_EQ(CountBarriers(f->body), 0);
  EXPECT_NE(MatmulMismatch(*f, shape), -1);
  opts.disabled_passes.clear();
  opts.target =
      LoweringTarget::kLlvm;  // CPU kernels have no thread blocks: thread_sync is not enabled
  f = RunPasses(SharedTileMatmul(shape), LoweringPipeline(), opts);
  ASSERT_TRUE(f.ok()) << f.status();
  EXPECT_EQ(CountBarriers(f->body), 0);
}

// A CPU-style nest: a local tile computed per row with a vectorized inner loop, then an unrolled
// reduction over it.
TEST(PipelineTest, VectorizedAndUnrolledNestMatchesTheLoopNest) {
  Buffer a("A", kF32, {6, 8}), c("C", kF32, {6});
  Buffer t("T", kF32, {6, 8}, "local");
  Var i("i"), j("j"), k("k");
  Stmt fill =
      Loop(j, 8, Store(t, Load(a, {i, j}) * Load(a, {i, j}) + 1.0f, {i, j}), ForKind::kVectorized);
  Stmt reduce =
      Seq({Store(c, FloatImm(kF32, 0), {i}),
           Loop(k, 8, Store(c, Load(c, {i}) + Load(t, {i, k}), {i}), ForKind::kUnrolled)});
  Stmt body =
      Loop(i, 6, Realize(t, {{i, 1}, {0, 8}}, Seq({Produce(t, fill), reduce})), ForKind::kParallel);
  PrimFunc before{"row_sum_of_squares", {a, c}, body};
  auto f = RunPasses(before, LoweringPipeline(), PassOptions{});
  ASSERT_TRUE(f.ok()) << f.status();
  std::string text = ToString(f->body);
  EXPECT_NE(text.find("T[ramp(0, 1, 8)] = A[ramp(i*8, 1, 8)]*A[ramp(i*8, 1, 8)] + x8(1.0f)"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("for (k"), std::string::npos) << text;
  ExpectSameResults(before, *f);
}

}  // namespace
}  // namespace tunefarm::passes
