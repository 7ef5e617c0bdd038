#include "compiler/passes/inject_virtual_thread.h"

#include <gtest/gtest.h>

#include "compiler/ir/printer.h"
#include "compiler/passes/storage_flatten.h"
#include "compiler/passes/thread_sync.h"
#include "compiler/passes/unroll_loops.h"
#include "tests/unit/compiler/ir_types.h"
#include "tests/unit/compiler/passes/interp_check.h"

namespace tunefarm::passes {
namespace {

using namespace ir;               // NOLINT: tests build IR by hand.
using namespace passes::testing;  // NOLINT

using ir_fixtures::kF32;

std::string Injected(Stmt body, std::vector<Buffer> params) {
  auto f = InjectVirtualThread(PrimFunc{"f", std::move(params), std::move(body)});
  EXPECT_TRUE(f.ok()) << f.status();
  return f.ok() ? ToString(f->body) : "";
}

TEST(InjectVirtualThreadTest, WithoutSharedMemoryTheWholeBodyIsOneLoop) {
  Buffer a("A", kF32, {8}), c("C", kF32, {8});
  Var v("v"), i("i");
  Stmt body = Launch(v, "vthread", 2, Loop(i, 4, FlatStore(c, FlatLoad(a, v * 4 + i), v * 4 + i)));
  EXPECT_EQ(Injected(body, {a, c}),
            "unrolled (v, 0, 2) {\n"
            "  for (i, 0, 4) {\n"
            "    C[v*4 + i] = A[v*4 + i]\n"
            "  }\n"
            "}\n");
}

TEST(InjectVirtualThreadTest, SharedTileIsLoadedOnceAndLocalsArePrivate) {
  auto f = StorageFlatten(SharedTileMatmul(TileShape{.vthreads = 2}));
  ASSERT_TRUE(f.ok()) << f.status();
  std::string text = Injected(f->body, f->params);
  EXPECT_EQ(text.find("virtual_thread"), std::string::npos) << text;
  // CL holds one accumulator tile per virtual thread.
  EXPECT_NE(text.find("allocate CL[float32 * 8], scope local"), std::string::npos) << text;
  EXPECT_NE(text.find("unrolled (vx, 0, 2) {\n  for (i, 0, 4) {\n    CL[i + vx*4] = 0.0f"),
            std::string::npos)
      << text;
  // The cooperative load does not use vx: it runs once, outside any virtual-thread loop, while
  // the update runs per virtual thread inside the loops that read the tile.
  EXPECT_NE(
      text.find(
          "  // produce AS\n"
          "  for (i, 0, 4) {\n"
          "    AS[i*4 + tx] = A[(bx*4 + i)*12 + (ko*4 + tx)]\n"
          "  }\n"
          "  for (kk, 0, 4) {\n"
          "    for (i, 0, 4) {\n"
          "      unrolled (vx, 0, 2) {\n"
          "        CL[i + vx*4] = CL[i + vx*4] + AS[i*4 + kk]*B[(ko*4 + kk)*8 + (vx*4 + tx)]\n"),
      std::string::npos)
      << text;
}

// Virtual threads with a local accumulator each, sharing one cooperatively loaded tile: after
// injection (and the barriers thread_sync adds) the kernel computes the plain product.
TEST(InjectVirtualThreadTest, VirtualThreadKernelMatchesThePlainProduct) {
  for (int vthreads : {2, 3}) {
    TileShape shape{.tile = 4, .blocks = 2, .k_tiles = 3, .vthreads = vthreads};
    absl::StatusOr<PrimFunc> f = StorageFlatten(SharedTileMatmul(shape));
    for (auto pass : {InjectVirtualThread, UnrollLoops, ThreadSync}) {
      ASSERT_TRUE(f.ok()) << f.status();
      f = pass(*f);
    }
    ASSERT_TRUE(f.ok()) << f.status();
    EXPECT_EQ(MatmulMismatch(*f, shape), -1) << ToString(f->body);
  }
}

TEST(InjectVirtualThreadTest, StatementThatReadsWhatItWritesRunsPerVirtualThread) {
  Buffer c("C", kF32, {1});
  Var v("v");
  Stmt body = Launch(v, "vthread", 3, FlatStore(c, FlatLoad(c, 0) + 1.0f, 0));
  EXPECT_EQ(Injected(body, {c}),
            "unrolled (v, 0, 3) {\n"
            "  C[0] = C[0] + 1.0f\n"
            "}\n");
  Stmt idempotent = Launch(v, "vthread", 3, FlatStore(c, 1.0f, 0));
  EXPECT_EQ(Injected(idempotent, {c}), "C[0] = 1.0f\n");
}

TEST(InjectVirtualThreadTest, LetOfTheVirtualThreadIsInlinedAroundSharedAccess) {
  Buffer a("A", kF32, {8}), c("C", kF32, {8});
  Var v("v"), x("x"), s("s", DataType::Handle());
  Stmt body =
      Launch(v, "vthread", 2,
             AllocateNode::Make(
                 s, kF32, {8}, "shared",
                 LetStmtNode::Make(x, v * 4,
                                   Seq({StoreNode::Make(s, FlatLoad(a, x), x),
                                        FlatStore(c, LoadNode::Make(kF32, s, 7 - x), x)}))));
  EXPECT_EQ(Injected(body, {a, c}),
            "allocate s[float32 * 8], scope shared\n"
            "unrolled (v, 0, 2) {\n"
            "  s[v*4] = A[v*4]\n"
            "}\n"
            "unrolled (v, 0, 2) {\n"
            "  C[v*4] = s[7 - v*4]\n"
            "}\n");
}

TEST(InjectVirtualThreadTest, ManyVirtualThreadsGiveASerialLoop) {
  Buffer c("C", kF32, {32});
  Var v("v");
  Stmt body = Launch(v, "vthread", 32, FlatStore(c, 1.0f, v));
  EXPECT_EQ(Injected(body, {c}),
            "for (v, 0, 32) {\n"
            "  C[v] = 1.0f\n"
            "}\n");
}

}  // namespace
}  // namespace tunefarm::passes
