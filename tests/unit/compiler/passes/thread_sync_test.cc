#include "compiler/passes/thread_sync.h"

#include <gtest/gtest.h>

#include "compiler/ir/printer.h"
#include "compiler/passes/storage_flatten.h"
#include "tests/unit/compiler/ir_types.h"
#include "tests/unit/compiler/passes/interp_check.h"

namespace tunefarm::passes {
namespace {

using namespace ir;               // NOLINT: tests build IR by hand.
using namespace passes::testing;  // NOLINT

using ir_fixtures::kF32;

Stmt Synced(Stmt body, std::vector<Buffer> params) {
  auto f = ThreadSync(PrimFunc{"f", std::move(params), std::move(body)});
  EXPECT_TRUE(f.ok()) << f.status();
  return f.ok() ? f->body : Stmt();
}

Stmt Shared(const Var& buffer_var, int size, Stmt body) {
  return AllocateNode::Make(buffer_var, kF32, {size}, "shared", std::move(body));
}

TEST(ThreadSyncTest, CooperativeTileLoopGetsReadAndLoopCarriedBarriers) {
  auto f = StorageFlatten(SharedTileMatmul(TileShape{}));
  ASSERT_TRUE(f.ok()) << f.status();
  Stmt body = Synced(f->body, f->params);
  std::string text = ToString(body);
  EXPECT_EQ(CountBarriers(body), 2) << text;
  // One barrier before the tile is overwritten by the next iteration, one before it is read.
  EXPECT_NE(text.find("for (ko, 0, 3) {\n"
                      "  sync_threads()\n"
                      "  allocate AS[float32 * 16], scope shared\n"
                      "  // produce AS\n"
                      "  for (i, 0, 4) {\n"
                      "    AS[i*4 + tx] = A[(bx*4 + i)*12 + (ko*4 + tx)]\n"
                      "  }\n"
                      "  sync_threads()\n"
                      "  for (kk, 0, 4) {\n"),
            std::string::npos)
      << text;
}

// The interpreter runs the threads of a block one after another between barriers, so the
// cooperative load is only correct with the barriers thread_sync inserts.
TEST(ThreadSyncTest, CooperativeKernelIsWrongWithoutBarriersAndRightWithThem) {
  TileShape shape;
  auto flat = StorageFlatten(SharedTileMatmul(shape));
  ASSERT_TRUE(flat.ok()) << flat.status();
  EXPECT_NE(MatmulMismatch(*flat, shape), -1);
  auto synced = ThreadSync(*flat);
  ASSERT_TRUE(synced.ok()) << synced.status();
  EXPECT_EQ(MatmulMismatch(*synced, shape), -1) << ToString(synced->body);
}

TEST(ThreadSyncTest, TileLoadedOnceNeedsOneBarrierOutsideTheLoop) {
  Buffer a("A", kF32, {4}), c("C", kF32, {4});
  Var s("s", DataType::Handle()), tx("tx"), k("k");
  Stmt fill = FlatStore(a, FlatLoad(a, tx), tx);
  fill = StoreNode::Make(s, FlatLoad(a, tx), tx);
  Stmt use = Loop(k, 4, FlatStore(c, FlatLoad(c, tx) + LoadNode::Make(kF32, s, k), tx));
  Stmt body = Synced(Launch(tx, "threadIdx.x", 4, Shared(s, 4, Seq({fill, use}))), {a, c});
  EXPECT_EQ(ToString(body),
            "// attr [iter_var(tx, range(min=0, ext=4), threadIdx.x)] thread_extent = 4\n"
            "allocate s[float32 * 4], scope shared\n"
            "s[tx] = A[tx]\n"
            "sync_threads()\n"
            "for (k, 0, 4) {\n"
            "  C[tx] = C[tx] + s[k]\n"
            "}\n");
}

// A tree reduction: the divergent branch is one unit, the barrier goes before it in the loop.
TEST(ThreadSyncTest, DivergentBranchGetsBarriersAroundItNotInside) {
  Buffer a("A", kF32, {8}), c("C", kF32, {1});
  Var s("red", DataType::Handle()), tx("tx"), k("k");
  Expr half = FloorDiv(4, k + 1);
  Stmt step = IfThenElseNode::Make(
      tx < half,
      StoreNode::Make(s, LoadNode::Make(kF32, s, tx) + LoadNode::Make(kF32, s, tx + half), tx));
  Stmt out = IfThenElseNode::Make(tx == 0, FlatStore(c, LoadNode::Make(kF32, s, 0), 0));
  ::testing::internal::CaptureStderr();
  Stmt body = Synced(
      Launch(tx, "threadIdx.x", 8,
             Shared(s, 8, Seq({StoreNode::Make(s, FlatLoad(a, tx), tx), Loop(k, 3, step), out}))),
      {a, c});
  EXPECT_EQ(::testing::internal::GetCapturedStderr(), "");
  EXPECT_EQ(ToString(body),
            "// attr [iter_var(tx, range(min=0, ext=8), threadIdx.x)] thread_extent = 8\n"
            "allocate red[float32 * 8], scope shared\n"
            "red[tx] = A[tx]\n"
            "for (k, 0, 3) {\n"
            "  sync_threads()\n"
            "  if (tx < floordiv(4, k + 1)) {\n"
            "    red[tx] = red[tx] + red[tx + floordiv(4, k + 1)]\n"
            "  }\n"
            "}\n"
            "sync_threads()\n"
            "if (tx == 0) {\n"
            "  C[0] = red[0]\n"
            "}\n");
}

// Threads run different iteration counts: the loop is one unit, no barrier inside, and the
// hazard inside it (reads of what other threads write) is reported.
TEST(ThreadSyncTest, LoopWithThreadDependentBoundsIsOneUnitAndWarns) {
  Buffer c("C", kF32, {4});
  Var s("s", DataType::Handle()), tx("tx"), k("k");
  Stmt loop = ForNode::Make(k, 0, tx, ForKind::kSerial,
                            StoreNode::Make(s, LoadNode::Make(kF32, s, k) + 1.0f, tx));
  Stmt read = FlatStore(c, LoadNode::Make(kF32, s, 3 - tx), tx);
  ::testing::internal::CaptureStderr();
  Stmt body = Synced(Launch(tx, "threadIdx.x", 4, Shared(s, 4, Seq({loop, read}))), {c});
  std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(ToString(body),
            "// attr [iter_var(tx, range(min=0, ext=4), threadIdx.x)] thread_extent = 4\n"
            "allocate s[float32 * 4], scope shared\n"
            "for (k, 0, tx) {\n"
            "  s[tx] = s[k] + 1.0f\n"
            "}\n"
            "sync_threads()\n"
            "C[tx] = s[3 - tx]\n");
  EXPECT_NE(err.find("varies across threads; no barrier can go there"), std::string::npos) << err;
}

TEST(ThreadSyncTest, NoBarrierWithoutThreadsOrSharedMemory) {
  Buffer a("A", kF32, {4}), c("C", kF32, {4});
  Var s("s", DataType::Handle()), l("l", DataType::Handle()), tx("tx"), i("i");
  // Shared memory but no thread region: nothing to synchronize.
  Stmt serial = Shared(s, 4,
                       Seq({Loop(i, 4, StoreNode::Make(s, FlatLoad(a, i), i)),
                            Loop(i, 4, FlatStore(c, LoadNode::Make(kF32, s, 3 - i), i))}));
  EXPECT_EQ(CountBarriers(Synced(serial, {a, c})), 0);
  // Threads but local memory only.
  Stmt local = Launch(tx, "threadIdx.x", 4,
                      AllocateNode::Make(l, kF32, {4}, "local",
                                         Seq({StoreNode::Make(l, FlatLoad(a, tx), 0),
                                              FlatStore(c, LoadNode::Make(kF32, l, 0), tx)})));
  EXPECT_EQ(CountBarriers(Synced(local, {a, c})), 0);
}

}  // namespace
}  // namespace tunefarm::passes
