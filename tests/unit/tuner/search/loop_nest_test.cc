// Loop-nest analysis and loop features on hand-built IR (every number checked by hand) and on a
// lowered, hand-scheduled matmul.
#include "tuner/search/loop_nest.h"

#include <cmath>
#include <gtest/gtest.h>

#include "compiler/ir/op.h"
#include "compiler/ir/printer.h"
#include "compiler/passes/lower.h"
#include "tests/unit/tuner/search/search_test_util.h"
#include "tuner/search/loop_features.h"

namespace tunefarm::tuner {
namespace {

using ir::DataType;
using ir::ForKind;

ir::Stmt Loop(const ir::Var& v, int extent, ir::Stmt body, ForKind kind = ForKind::kSerial) {
  return ir::ForNode::Make(v, 0, extent, kind, std::move(body));
}

ir::Expr FlatLoad(const ir::Buffer& b, ir::Expr index) {
  const DataType t = b->dtype.with_lanes(index.dtype().lanes());
  return ir::LoadNode::Make(t, b->data, std::move(index));
}

// for i in 0..4 parallel: for j in 0..8: C[i*8 + j] = A[i*8 + j] * 2 + B[j]
ir::PrimFunc AxpyLike() {
  ir::Buffer a("A", DataType::Float(32), {32}), b("B", DataType::Float(32), {8}),
      c("C", DataType::Float(32), {32});
  ir::Var i("i"), j("j");
  ir::Expr value = FlatLoad(a, i * 8 + j) * ir::Expr(2.0f) + FlatLoad(b, j);
  ir::Stmt store = ir::StoreNode::Make(c->data, value, i * 8 + j);
  return {"axpy", {a, b, c}, Loop(i, 4, Loop(j, 8, store), ForKind::kParallel)};
}

TEST(LoopNestTest, HandBuiltNestHasExactFacts) {
  std::vector<LoopNest> nests = AnalyzeLoopNests(AxpyLike());
  ASSERT_EQ(nests.size(), 1u);
  const LoopNest& n = nests[0];
  ASSERT_EQ(n.loops.size(), 2u);
  // Innermost first: j, then i.
  EXPECT_EQ(n.loops[0].extent, 8);
  EXPECT_EQ(n.loops[0].depth, 2);
  EXPECT_EQ(n.loops[0].kind, ForKind::kSerial);
  EXPECT_EQ(n.loops[0].prod_above, 4);
  EXPECT_EQ(n.loops[0].prod_below, 1);
  EXPECT_EQ(n.loops[1].extent, 4);
  EXPECT_EQ(n.loops[1].depth, 1);
  EXPECT_EQ(n.loops[1].kind, ForKind::kParallel);
  EXPECT_EQ(n.loops[1].prod_above, 1);
  EXPECT_EQ(n.loops[1].prod_below, 8);
  EXPECT_EQ(n.iterations, 32);
  // A * 2 + B is one fma; i * 8 + j twice is 2 integer muls and 2 adds.
  EXPECT_EQ(n.ops.float_fma, 1);
  EXPECT_EQ(n.ops.float_add, 0);
  EXPECT_EQ(n.ops.float_mul, 0);
  EXPECT_EQ(n.ops.int_ops, 4);
  // 32 iterations x (5 ops + 3 accesses).
  EXPECT_EQ(n.cost, 256);
  ASSERT_EQ(n.accesses.size(), 3u);
  const AccessInfo& c = n.accesses[0];
  EXPECT_EQ(c.buffer, "C");
  EXPECT_TRUE(c.is_store);
  EXPECT_EQ(c.strides, (std::vector<int64_t>{1, 8}));
  EXPECT_EQ(c.touched_bytes, (std::vector<double>{32, 128}));
  EXPECT_EQ(c.reuse, (std::vector<double>{1, 1}));
  const AccessInfo& a = n.accesses[1];
  EXPECT_EQ(a.buffer, "A");
  EXPECT_FALSE(a.is_store);
  EXPECT_EQ(a.strides, (std::vector<int64_t>{1, 8}));
  const AccessInfo& b = n.accesses[2];
  EXPECT_EQ(b.buffer, "B");
  EXPECT_EQ(b.strides, (std::vector<int64_t>{1, 0}));
  // B[j] is 8 floats whatever i is, each read 4 times over the whole nest.
  EXPECT_EQ(b.touched_bytes, (std::vector<double>{32, 32}));
  EXPECT_EQ(b.reuse, (std::vector<double>{1, 4}));
}

// for i in 0..4: { C[i] = 0; for k in 0..16: C[i] = C[i] + A[i*16 + k] * B[Ramp(k*8, 1, 8)]... }
// The init store belongs to the i loop's own nest; the update to the k loop's.
TEST(LoopNestTest, StatementsBelongToTheirInnermostLoopAndNestsRankByCost) {
  ir::Buffer a("A", DataType::Float(32), {64}), b("B", DataType::Float(32), {128}),
      c("C", DataType::Float(32), {32});
  ir::Var i("i"), k("k");
  ir::Expr ramp = ir::RampNode::Make(k * 8, 1, 8);
  ir::Expr update = FlatLoad(c, ir::RampNode::Make(i * 8, 1, 8)) +
                    ir::BroadcastNode::Make(FlatLoad(a, i * 16 + k), 8) * FlatLoad(b, ramp);
  ir::Stmt body = ir::SeqStmtNode::Make(
      {ir::StoreNode::Make(c->data, ir::BroadcastNode::Make(ir::Expr(0.0f), 8),
                           ir::RampNode::Make(i * 8, 1, 8)),
       Loop(k, 16, ir::StoreNode::Make(c->data, update, ir::RampNode::Make(i * 8, 1, 8)))});
  std::vector<LoopNest> nests = AnalyzeLoopNests({"f", {a, b, c}, Loop(i, 4, body)});
  ASSERT_EQ(nests.size(), 2u);
  const LoopNest& inner = nests[0];
  ASSERT_EQ(inner.loops.size(), 2u);
  EXPECT_EQ(inner.loops[0].extent, 16);
  EXPECT_EQ(inner.iterations, 64);
  EXPECT_EQ(inner.ops.float_fma, 8);  // one 8-lane fma
  ASSERT_EQ(inner.accesses.size(), 4u);
  // The store to C and the load of C have equal strides but different directions.
  EXPECT_TRUE(inner.accesses[0].is_store);
  EXPECT_EQ(inner.accesses[0].lanes, 8);
  EXPECT_EQ(inner.accesses[0].strides, (std::vector<int64_t>{0, 8}));
  // C's 8 lanes are touched once per k: 8 floats, reused 16 times in the k loop.
  EXPECT_EQ(inner.accesses[0].touched_bytes[0], 32);
  EXPECT_EQ(inner.accesses[0].reuse[0], 16);
  const AccessInfo& bload = inner.accesses[3];
  EXPECT_EQ(bload.buffer, "B");
  EXPECT_EQ(bload.strides, (std::vector<int64_t>{8, 0}));
  EXPECT_EQ(bload.touched_bytes, (std::vector<double>{512, 512}));
  EXPECT_EQ(bload.reuse, (std::vector<double>{1, 4}));
  const LoopNest& outer = nests[1];
  ASSERT_EQ(outer.loops.size(), 1u);
  EXPECT_EQ(outer.loops[0].extent, 4);
  ASSERT_EQ(outer.accesses.size(), 1u);
  EXPECT_EQ(outer.accesses[0].touched_bytes[0], 128);
}

// Thread launches are loops of kind thread-bound; a fused loop's floordiv/floormod index has
// its local stride; a launch nested in one of the same tag adds no loop.
TEST(LoopNestTest, ThreadLaunchesAndFusedLoops) {
  ir::Buffer a("A", DataType::Float(32), {256}), c("C", DataType::Float(32), {256});
  ir::Var bx("bx"), tx("tx"), tx2("tx2"), f("f");
  auto launch = [](const ir::Var& v, const std::string& tag, int extent, ir::Stmt body) {
    ir::IterVar iv(ir::Range{0, extent}, v, ir::IterVarType::kThreadIndex, tag);
    return ir::AttrStmtNode::Make(iv, ir::attr::kThreadExtent, extent, std::move(body));
  };
  // C[bx*64 + tx*8 + f/4*4 + f%4] = A[...] under blockIdx.x(4), threadIdx.x(8), and a nested
  // threadIdx.x launch whose variable tx2 is the running tx.
  ir::Expr index = bx * 64 + tx2 * 8 + ir::FloorDiv(f, 4) * 4 + ir::FloorMod(f, 4);
  ir::Stmt store = ir::StoreNode::Make(c->data, FlatLoad(a, index), index);
  ir::Stmt body =
      launch(bx, "blockIdx.x", 4,
             launch(tx, "threadIdx.x", 8, launch(tx2, "threadIdx.x", 8, Loop(f, 8, store))));
  std::vector<LoopNest> nests = AnalyzeLoopNests({"g", {a, c}, body});
  ASSERT_EQ(nests.size(), 1u);
  const LoopNest& n = nests[0];
  ASSERT_EQ(n.loops.size(), 3u);
  EXPECT_EQ(n.loops[0].extent, 8);
  EXPECT_EQ(n.loops[1].kind, ForKind::kThreadBinding);
  EXPECT_EQ(n.loops[1].extent, 8);
  EXPECT_EQ(n.loops[2].kind, ForKind::kThreadBinding);
  EXPECT_EQ(n.iterations, 256);
  ASSERT_EQ(n.accesses.size(), 2u);
  EXPECT_EQ(n.accesses[0].strides, (std::vector<int64_t>{1, 8, 64}));
  EXPECT_EQ(n.accesses[0].touched_bytes, (std::vector<double>{32, 256, 1024}));
}

TEST(LoopFeaturesTest, VectorLayoutIsLogScaledAndZeroPadded) {
  LoopFeatureOptions o{.max_nests = 2, .max_loops = 3, .max_accesses = 2};
  const int access_slot = kAccessFixedFeatures + kAccessLevelFeatures * 3;
  const int nest_slot = kNestHeaderFeatures + kLoopSlotFeatures * 3 + access_slot * 2;
  ASSERT_EQ(LoopFeatureLength(o), 2 * nest_slot);
  std::vector<float> f = ExtractLoopFeatures(AxpyLike(), o);
  ASSERT_EQ(f.size(), static_cast<size_t>(2 * nest_slot));
  EXPECT_FLOAT_EQ(f[0], 1);                 // a nest is present
  EXPECT_FLOAT_EQ(f[1], std::log2(33.0f));  // 32 iterations
  EXPECT_FLOAT_EQ(f[2], std::log2(257.0f));
  EXPECT_FLOAT_EQ(f[5], 1);                // one fma: log2(2)
  EXPECT_FLOAT_EQ(f[7], std::log2(5.0f));  // 4 int ops
  const float* loop0 = f.data() + kNestHeaderFeatures;
  EXPECT_FLOAT_EQ(loop0[0], std::log2(9.0f));  // extent 8
  EXPECT_FLOAT_EQ(loop0[1], std::log2(3.0f));  // depth 2
  EXPECT_FLOAT_EQ(loop0[2], 1);                // serial
  EXPECT_FLOAT_EQ(loop0[7], std::log2(5.0f));  // 4 iterations above
  const float* loop1 = loop0 + kLoopSlotFeatures;
  EXPECT_FLOAT_EQ(loop1[3], 1);  // parallel
  const float* loop2 = loop1 + kLoopSlotFeatures;
  for (int x = 0; x < kLoopSlotFeatures; ++x) EXPECT_EQ(loop2[x], 0) << x;
  const float* store = loop2 + kLoopSlotFeatures;
  EXPECT_FLOAT_EQ(store[0], 1);                // is_store
  EXPECT_FLOAT_EQ(store[2], std::log2(5.0f));  // 4-byte elements
  const float* levels = store + kAccessFixedFeatures;
  EXPECT_FLOAT_EQ(levels[0], 1);                  // stride 1 along j
  EXPECT_FLOAT_EQ(levels[1], std::log2(33.0f));   // 32 bytes in the j loop
  EXPECT_FLOAT_EQ(levels[2], 1);                  // reuse 1
  EXPECT_FLOAT_EQ(levels[3], std::log2(9.0f));    // stride 8 along i
  EXPECT_FLOAT_EQ(levels[4], std::log2(129.0f));  // 128 bytes in the whole nest
  // The second nest slot is all zeros.
  for (int x = nest_slot; x < 2 * nest_slot; ++x) EXPECT_EQ(f[x], 0) << x;
  EXPECT_FLOAT_EQ(LogScale(-3), -2);
}

// A hand-scheduled 16x16x16 matmul: tiles of 4 (i), 8 (j, vectorized) and 4 (k), outer i
// parallel, lowered the way the feature extractor lowers.
TEST(LoopNestTest, LoweredMatmulShowsTheSchedule) {
  std::unique_ptr<Task> task = testing::MakeMatmulTask(16, 16, 16);
  ASSERT_NE(task, nullptr);
  const space::ConfigSpace& s = task->space();
  absl::StatusOr<space::Config> config =
      s.FromKnobIndices({*s.knob(0).IndexOf(std::vector<int64_t>{4, 4}),
                         *s.knob(1).IndexOf(std::vector<int64_t>{2, 8}),
                         *s.knob(2).IndexOf(std::vector<int64_t>{4, 4}), 1, 1, 0});
  ASSERT_TRUE(config.ok()) << config.status();
  absl::StatusOr<topi::ScheduledOp> op = task->Apply(*config);
  ASSERT_TRUE(op.ok()) << op.status();
  passes::PassOptions po;
  po.disabled_passes = {"vectorize_loops", "unroll_loops"};
  absl::StatusOr<ir::PrimFunc> f = passes::Lower(op->schedule, op->args, "mm", po);
  ASSERT_TRUE(f.ok()) << f.status();
  std::vector<LoopNest> nests = AnalyzeLoopNests(*f);
  ASSERT_GE(nests.size(), 2u) << ir::ToString(f->body);
  const LoopNest& update = nests[0];
  ASSERT_EQ(update.loops.size(), 6u) << ir::ToString(f->body);
  const std::vector<int64_t> extents = {8, 4, 4, 4, 2, 4};  // ji, ki, ii, ko, jo, io
  for (size_t l = 0; l < 6; ++l) EXPECT_EQ(update.loops[l].extent, extents[l]) << l;
  EXPECT_EQ(update.loops[0].kind, ForKind::kVectorized);
  EXPECT_EQ(update.loops[5].kind, ForKind::kParallel);
  EXPECT_EQ(update.iterations, 16 * 16 * 16);
  EXPECT_EQ(update.ops.float_fma, 1);
  ASSERT_EQ(update.accesses.size(), 4u);  // store C; load C, A, B
  for (const AccessInfo& a : update.accesses) {
    SCOPED_TRACE(a.buffer);
    if (a.buffer == "C") {
      EXPECT_EQ(a.strides, (std::vector<int64_t>{1, 0, 16, 0, 8, 64}));
    }
    if (a.buffer == "A") {
      EXPECT_EQ(a.strides, (std::vector<int64_t>{0, 1, 16, 4, 0, 64}));
    }
    if (a.buffer == "B") {
      EXPECT_EQ(a.strides, (std::vector<int64_t>{1, 16, 0, 64, 8, 0}));
    }
  }
  // The init nest (C = 0) runs 256 times: cheaper, so second.
  EXPECT_EQ(nests[1].iterations, 256);
}

}  // namespace
}  // namespace tunefarm::tuner
