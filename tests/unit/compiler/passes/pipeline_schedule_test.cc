// The pipeline on the loop nest ScheduleOps emits (not a hand-built one): a GPU matrix product
// scheduled the way GPU templates do it — blocks, virtual threads, threads, a shared tile loaded
// cooperatively and a local accumulator.
#include <gtest/gtest.h>

#include "compiler/ir/printer.h"
#include "compiler/passes/lower.h"
#include "compiler/passes/pipeline.h"
#include "compiler/schedule/schedule.h"
#include "compiler/te/tensor.h"
#include "tests/unit/compiler/passes/interp_check.h"

namespace tunefarm::passes {
namespace {

using passes::testing::MatmulMismatch;

constexpr int kN = 32;

struct GpuMatmul {
  te::Tensor a = te::placeholder({kN, kN}, ir::DataType::Float(32), "A");
  te::Tensor b = te::placeholder({kN, kN}, ir::DataType::Float(32), "B");
  ir::IterVar k = te::reduce_axis({0, kN}, "k");
  te::Tensor c = *te::compute(
      {kN, kN},
      [&](const auto& i) {
        return te::sum(a({i[0], k->var}) * b({k->var, i[1]}), {k});
      },
      "C");
  schedule::Schedule s = schedule::Schedule::Create({c.op()});

  // Rows: 2 blocks × 2 virtual threads × 8 threadIdx.y; columns: 2 blocks × 16 threadIdx.x.
  // Each k tile of 8 is loaded into shared memory by all 128 threads of the block.
  GpuMatmul() {
    te::Tensor shared = *s.cache_read(a, "shared", {c});
    te::Tensor local = *s.cache_write(c, "local");
    ir::IterVar bo, rows, vo, ti, jo, tj, ko, ki, fused, fo, fi, foo, foi;
    schedule::Stage& sc = s[c];
    sc.split(c.op()->axis[0], 16, &bo, &rows).split_by_nparts(rows, 2, &vo, &ti);
    sc.split(c.op()->axis[1], 16, &jo, &tj).reorder({bo, jo, vo, ti, tj});
    sc.bind(bo, te::thread_axis({}, "blockIdx.x")).bind(jo, te::thread_axis({}, "blockIdx.y"));
    sc.bind(vo, te::thread_axis({0, 2}, "vthread"));
    ir::IterVar ty = te::thread_axis({0, 8}, "threadIdx.y");
    ir::IterVar tx = te::thread_axis({0, 16}, "threadIdx.x");
    sc.bind(ti, ty).bind(tj, tx);
    schedule::Stage& sl = s[local];
    sl.compute_at(sc, tj).split(local.op()->reduce_axis[0], 8, &ko, &ki);
    sl.reorder({ko, ki, local.op()->axis[0], local.op()->axis[1]});
    schedule::Stage& sa = s[shared];
    sa.compute_at(sl, ko).fuse(shared.op()->axis[0], shared.op()->axis[1], &fused);
    sa.split(fused, 16, &fo, &fi).split(fo, 8, &foo, &foi).bind(fi, tx).bind(foi, ty);
  }
};

absl::StatusOr<ir::PrimFunc> Lowered(const PassOptions& opts) {
  GpuMatmul w;
  if (!w.s.error().ok()) return w.s.error();
  absl::StatusOr<ir::PrimFunc> nest = LowerToLoopNest(w.s, {w.a, w.b, w.c}, "gpu_matmul");
  if (!nest.ok()) return nest.status();
  return RunPasses(*nest, LoweringPipeline(), opts);
}

TEST(PipelineScheduleTest, GpuMatmulWithVirtualThreadsAndSharedTile) {
  absl::StatusOr<ir::PrimFunc> f = Lowered(PassOptions{});
  ASSERT_TRUE(f.ok()) << f.status();
  std::string text = ir::ToString(f->body);
  EXPECT_EQ(text.find("virtual_thread"), std::string::npos) << text;
  EXPECT_EQ(passes::testing::CountBarriers(f->body), 2) << text;
  EXPECT_EQ(MatmulMismatch(*f, kN, kN, kN), -1) << text;
}

TEST(PipelineScheduleTest, GpuMatmulIsWrongWithoutThreadSync) {
  PassOptions opts;
  opts.disabled_passes = {"thread_sync"};
  absl::StatusOr<ir::PrimFunc> f = Lowered(opts);
  ASSERT_TRUE(f.ok()) << f.status();
  EXPECT_NE(MatmulMismatch(*f, kN, kN, kN), -1);
}

}  // namespace
}  // namespace tunefarm::passes
