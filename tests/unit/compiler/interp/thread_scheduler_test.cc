// GPU semantics: blocks and threads, shared vs local memory, and barriers. The key property is
// that a missing barrier is observable: threads run one after another between barriers, so a
// read of a neighbour's write without a barrier sees poison instead of the right value.
#include <cmath>
#include <gtest/gtest.h>
#include <string>

#include "compiler/interp/interpreter.h"
#include "compiler/ir/op.h"
#include "tests/unit/compiler/interp/interp_fixtures.h"

namespace tunefarm::interp {
namespace {

using ir::DataType;
using ir::Expr;
using ir::Stmt;
using testing::Contents;
using testing::MakeArray;

using testing::kF32;
using testing::kI32;

Stmt Launch(const std::string& tag, const ir::Var& v, int extent, Stmt body) {
  ir::IterVar iv(ir::Range::FromMinExtent(0, extent), v, ir::IterVarType::kThreadIndex, tag);
  return ir::AttrStmtNode::Make(iv, ir::attr::kThreadExtent, extent, std::move(body));
}
Stmt Sync() { return ir::EvaluateNode::Make(ir::CallNode::Make(ir::Intrinsic::kSyncThreads, {})); }
Stmt Seq(std::vector<Stmt> s) { return ir::SeqStmtNode::Make(std::move(s)); }
Stmt Store(const ir::Var& buffer, Expr value, Expr index) {
  return ir::StoreNode::Make(buffer, std::move(value), std::move(index));
}
Expr Load(const ir::Var& buffer, Expr index, DataType t = kF32) {
  return ir::LoadNode::Make(t, buffer, std::move(index));
}

// B[g] = A[g] + A[neighbour of g in its block of 8], through shared memory S, with or without the
// barrier between the writes and the reads. `alloc_inside` puts S's Allocate inside the thread
// launch, where every thread executes it.
struct NeighbourKernel {
  ir::Buffer a{"A", kF32, {16}}, b{"B", kF32, {16}};
  ir::Var bx{"bx"}, tx{"tx"}, s{"S", DataType::Handle()};

  ir::PrimFunc Make(bool barrier, bool alloc_inside, bool for_binding = false) const {
    Expr g = bx * 8 + tx;
    std::vector<Stmt> body = {Store(s, Load(a->data, g), tx)};
    if (barrier) body.push_back(Sync());
    body.push_back(Store(b->data, Load(s, tx) + Load(s, ir::FloorMod(tx + 1, 8)), g));
    Stmt threads = Seq(body);
    if (alloc_inside) threads = ir::AllocateNode::Make(s, kF32, {8}, "shared", threads);
    threads = for_binding
                  ? ir::ForNode::Make(tx, 0, 8, ir::ForKind::kThreadBinding, threads, "threadIdx.x")
                  : Launch("threadIdx.x", tx, 8, threads);
    if (!alloc_inside) threads = ir::AllocateNode::Make(s, kF32, {8}, "shared", threads);
    return ir::PrimFunc{"neighbour", {a, b}, Launch("blockIdx.x", bx, 2, threads)};
  }

  std::vector<float> RunIt(const ir::PrimFunc& f) const {
    std::vector<float> in(16);
    for (int i = 0; i < 16; ++i) in[i] = static_cast<float>(i * i);
    runtime::NDArray x = MakeArray<float>(kF32, {16}, in), y = MakeArray<float>(kF32, {16});
    absl::Status status = interp::Run(f, {&x, &y});
    EXPECT_TRUE(status.ok()) << status;
    return Contents<float>(y);
  }

  static std::vector<float> Expected() {
    std::vector<float> out(16);
    for (int i = 0; i < 16; ++i) {
      const int n = i / 8 * 8 + (i % 8 + 1) % 8;
      out[i] = static_cast<float>(i * i + n * n);
    }
    return out;
  }
};

TEST(ThreadSchedulerTest, MissingBarrierGivesAWrongAnswer) {
  NeighbourKernel k;
  for (bool alloc_inside : {false, true}) {
    for (bool for_binding : {false, true}) {
      SCOPED_TRACE(::testing::Message()
                   << "alloc_inside=" << alloc_inside << " for_binding=" << for_binding);
      EXPECT_EQ(k.RunIt(k.Make(true, alloc_inside, for_binding)), NeighbourKernel::Expected());
      const std::vector<float> racy = k.RunIt(k.Make(false, alloc_inside, for_binding));
      EXPECT_NE(racy, NeighbourKernel::Expected());
      // Thread 0 ran to its end before thread 1 wrote S[1].
      EXPECT_TRUE(std::isnan(racy[0]));
    }
  }
}

TEST(ThreadSchedulerTest, NestedThreadLaunchesMultiplyTheThreadSet) {
  ir::Buffer a("A", kF32, {8}), b("B", kF32, {8});
  ir::Var ty("ty"), tx("tx"), s("S", DataType::Handle());
  Expr t = ty * 4 + tx;
  // B[t] = A[7 - t]: every one of the 2 x 4 threads must write before any reads.
  Stmt body = Seq({Store(s, Load(a->data, t), t), Sync(), Store(b->data, Load(s, 7 - t), t)});
  Stmt kernel = ir::AllocateNode::Make(
      s, kF32, {8}, "shared", Launch("threadIdx.y", ty, 2, Launch("threadIdx.x", tx, 4, body)));
  runtime::NDArray x = MakeArray<float>(kF32, {8}, {0, 1, 2, 3, 4, 5, 6, 7});
  runtime::NDArray y = MakeArray<float>(kF32, {8});
  ASSERT_TRUE(interp::Run(ir::PrimFunc{"reverse", {a, b}, kernel}, {&x, &y}).ok());
  EXPECT_EQ(Contents<float>(y), (std::vector<float>{7, 6, 5, 4, 3, 2, 1, 0}));
}

TEST(ThreadSchedulerTest, BlocksAndThreadsCoverTheGrid) {
  ir::Buffer out("Out", kI32, {24});
  ir::Var by("by"), bx("bx"), tx("tx");
  Stmt store = Store(out->data, by * 100 + bx * 10 + tx, (by * 3 + bx) * 4 + tx);
  Stmt kernel =
      Launch("blockIdx.y", by, 2, Launch("blockIdx.x", bx, 3, Launch("threadIdx.x", tx, 4, store)));
  runtime::NDArray arr = MakeArray<int32_t>(kI32, {24});
  ASSERT_TRUE(interp::Run(ir::PrimFunc{"grid", {out}, kernel}, {&arr}).ok());
  std::vector<int32_t> r = Contents<int32_t>(arr);
  for (int y = 0; y < 2; ++y) {
    for (int x = 0; x < 3; ++x) {
      for (int t = 0; t < 4; ++t) EXPECT_EQ(r[(y * 3 + x) * 4 + t], y * 100 + x * 10 + t);
    }
  }
}

TEST(ThreadSchedulerTest, LocalIsPerThreadAndSharedIsPerBlock) {
  ir::Buffer out_local("OutL", kI32, {4}), out_shared("OutS", kI32, {4});
  ir::Var bx("bx"), tx("tx"), l("L", DataType::Handle()), s("S", DataType::Handle());
  // Both allocations sit above the thread launch, as lowering places them.
  Stmt threads = Launch(
      "threadIdx.x", tx, 4,
      Seq({Store(l, tx, 0), Store(s, tx, 0), Sync(), Store(out_local->data, Load(l, 0, kI32), tx),
           Store(out_shared->data, Load(s, 0, kI32), tx)}));
  Stmt kernel =
      Launch("blockIdx.x", bx, 1,
             ir::AllocateNode::Make(l, kI32, {1}, "local",
                                    ir::AllocateNode::Make(s, kI32, {1}, "shared", threads)));
  runtime::NDArray ol = MakeArray<int32_t>(kI32, {4}), os = MakeArray<int32_t>(kI32, {4});
  ASSERT_TRUE(
      interp::Run(ir::PrimFunc{"scopes", {out_local, out_shared}, kernel}, {&ol, &os}).ok());
  EXPECT_EQ(Contents<int32_t>(ol), (std::vector<int32_t>{0, 1, 2, 3}));
  EXPECT_EQ(Contents<int32_t>(os), (std::vector<int32_t>{3, 3, 3, 3}));  // the last writer wins
}

TEST(ThreadSchedulerTest, SharedMemoryIsFreshForEachBlock) {
  ir::Buffer out("Out", kF32, {2});
  ir::Var bx("bx"), tx("tx"), s("S", DataType::Handle());
  Stmt threads = Launch("threadIdx.x", tx, 1,
                        Seq({ir::IfThenElseNode::Make(bx == 0, Store(s, ir::FloatImm(kF32, 1), 0)),
                             Store(out->data, Load(s, 0), bx)}));
  Stmt kernel =
      Launch("blockIdx.x", bx, 2, ir::AllocateNode::Make(s, kF32, {1}, "shared", threads));
  runtime::NDArray arr = MakeArray<float>(kF32, {2});
  ASSERT_TRUE(interp::Run(ir::PrimFunc{"fresh", {out}, kernel}, {&arr}).ok());
  EXPECT_EQ(Contents<float>(arr)[0], 1.0f);
  EXPECT_TRUE(std::isnan(Contents<float>(arr)[1]));
}

// Before flattening: a shared buffer realized inside the thread launch (where compute_at puts
// it), written and read with BufferStore / BufferLoad, is still one buffer for the block.
TEST(ThreadSchedulerTest, RealizedSharedBufferIsOnePerBlock) {
  ir::Buffer a("A", kF32, {8}), b("B", kF32, {8});
  ir::Buffer s("S", kF32, {8}, "shared");
  ir::Var bx("bx"), tx("tx");
  auto kernel = [&](bool barrier) {
    Expr g = bx * 4 + tx;
    std::vector<Stmt> body = {ir::BufferStoreNode::Make(s, ir::BufferLoadNode::Make(a, {g}), {g})};
    if (barrier) body.push_back(Sync());
    // Each thread reads the element of the block's next thread (cyclically).
    Expr next = bx * 4 + ir::FloorMod(tx + 1, 4);
    body.push_back(ir::BufferStoreNode::Make(b, ir::BufferLoadNode::Make(s, {next}), {g}));
    Stmt realize = ir::BufferRealizeNode::Make(s, {ir::Range::FromMinExtent(bx * 4, 4)}, Seq(body));
    return ir::PrimFunc{
        "realized", {a, b}, Launch("blockIdx.x", bx, 2, Launch("threadIdx.x", tx, 4, realize))};
  };
  runtime::NDArray x = MakeArray<float>(kF32, {8}, {0, 1, 2, 3, 4, 5, 6, 7});
  runtime::NDArray y = MakeArray<float>(kF32, {8});
  absl::Status st = interp::Run(kernel(true), {&x, &y});
  ASSERT_TRUE(st.ok()) << st;
  EXPECT_EQ(Contents<float>(y), (std::vector<float>{1, 2, 3, 0, 5, 6, 7, 4}));
  ASSERT_TRUE(interp::Run(kernel(false), {&x, &y}).ok());
  EXPECT_TRUE(std::isnan(Contents<float>(y)[0]));
}

TEST(ThreadSchedulerTest, BarrierInDivergentCodeIsAnError) {
  ir::Buffer out("Out", kI32, {4});
  ir::Var tx("tx"), i("i");
  Stmt branch = Launch("threadIdx.x", tx, 4, ir::IfThenElseNode::Make(tx < 2, Sync()));
  runtime::NDArray arr = MakeArray<int32_t>(kI32, {4});
  absl::Status s = interp::Run(ir::PrimFunc{"branch", {out}, branch}, {&arr});
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("barrier in divergent branch"), std::string::npos) << s;

  Stmt loop =
      Launch("threadIdx.x", tx, 4, ir::ForNode::Make(i, 0, tx, ir::ForKind::kSerial, Sync()));
  s = interp::Run(ir::PrimFunc{"loop", {out}, loop}, {&arr});
  EXPECT_NE(s.message().find("barrier in divergent loop"), std::string::npos) << s;

  // The same shapes with conditions and extents every thread agrees on are fine.
  ir::Var bx("bx");
  Stmt uniform =
      Launch("blockIdx.x", bx, 2,
             Launch("threadIdx.x", tx, 4,
                    Seq({ir::IfThenElseNode::Make(bx == 0, Sync(), Store(out->data, tx, tx)),
                         ir::ForNode::Make(i, 0, bx + 1, ir::ForKind::kSerial, Sync())})));
  s = interp::Run(ir::PrimFunc{"uniform", {out}, uniform}, {&arr});
  EXPECT_TRUE(s.ok()) << s;
  EXPECT_EQ(Contents<int32_t>(arr), (std::vector<int32_t>{0, 1, 2, 3}));
}

TEST(ThreadSchedulerTest, ANestedLaunchOfTheSameTagRebindsTheThreadIndex) {
  ir::Buffer a("A", kF32, {4}), b("B", kF32, {4});
  ir::Var tx("tx"), tx2("tx2"), s("S", DataType::Handle());
  auto kernel = [&](int inner_extent) {
    Stmt inner = Launch("threadIdx.x", tx2, inner_extent, Store(b->data, Load(s, 3 - tx2), tx2));
    Stmt body = Seq({Store(s, Load(a->data, tx), tx), Sync(), inner});
    return ir::PrimFunc{
        "rebind",
        {a, b},
        ir::AllocateNode::Make(s, kF32, {4}, "shared", Launch("threadIdx.x", tx, 4, body))};
  };
  runtime::NDArray x = MakeArray<float>(kF32, {4}, {1, 2, 3, 4}), y = MakeArray<float>(kF32, {4});
  ASSERT_TRUE(interp::Run(kernel(4), {&x, &y}).ok());
  EXPECT_EQ(Contents<float>(y), (std::vector<float>{4, 3, 2, 1}));
  absl::Status s2 = interp::Run(kernel(2), {&x, &y});
  EXPECT_NE(s2.message().find("threadIdx.x bound again with extent 2"), std::string::npos) << s2;
}

TEST(ThreadSchedulerTest, VirtualThreadsRunSerially) {
  ir::Buffer out("Out", kI32, {3});
  ir::Var vt("vt");
  ir::IterVar iv(ir::Range::FromMinExtent(0, 3), vt, ir::IterVarType::kThreadIndex, "vthread");
  // out[vt] = out[vt - 1] + 10 (out[-1] read as 0 via if_then_else): only right if serial.
  Expr prev = ir::IfThenElse(vt > 0, Load(out->data, ir::Max(vt - 1, 0), kI32), 0);
  Stmt store = Store(out->data, prev + 10, vt);
  const Stmt forms[] = {ir::AttrStmtNode::Make(iv, ir::attr::kVirtualThread, 3, store),
                        ir::AttrStmtNode::Make(iv, ir::attr::kThreadExtent, 3, store),
                        ir::ForNode::Make(vt, 0, 3, ir::ForKind::kThreadBinding, store, "vthread")};
  for (const Stmt& body : forms) {
    runtime::NDArray arr = MakeArray<int32_t>(kI32, {3});
    ASSERT_TRUE(interp::Run(ir::PrimFunc{"vthread", {out}, body}, {&arr}).ok());
    EXPECT_EQ(Contents<int32_t>(arr), (std::vector<int32_t>{10, 20, 30}));
  }
}

TEST(ThreadSchedulerTest, ErrorsInsideALaunchNameTheThread) {
  ir::Buffer out("Out", kI32, {12});
  ir::Var bx("bx"), tx("tx");
  Stmt kernel =
      Launch("blockIdx.x", bx, 2, Launch("threadIdx.x", tx, 4, Store(out->data, tx, bx * 10 + tx)));
  runtime::NDArray arr = MakeArray<int32_t>(kI32, {12});
  absl::Status s = interp::Run(ir::PrimFunc{"oob", {out}, kernel}, {&arr});
  EXPECT_EQ(s.code(), absl::StatusCode::kOutOfRange);
  EXPECT_NE(s.message().find("Store Out[12]"), std::string::npos) << s;
  EXPECT_NE(s.message().find("(at blockIdx.x=1, threadIdx.x=2)"), std::string::npos) << s;

  Stmt inverted = Launch("threadIdx.x", tx, 4, Launch("blockIdx.x", bx, 2, Sync()));
  s = interp::Run(ir::PrimFunc{"inverted", {out}, inverted}, {&arr});
  EXPECT_NE(s.message().find("blockIdx.x launched inside threadIdx.x"), std::string::npos) << s;

  Stmt unknown = Launch("warpIdx.x", tx, 4, Sync());
  s = interp::Run(ir::PrimFunc{"unknown", {out}, unknown}, {&arr});
  EXPECT_EQ(s.code(), absl::StatusCode::kUnimplemented);
}

TEST(ThreadSchedulerTest, BarrierOutsideALaunchDoesNothing) {
  ir::Buffer out("Out", kI32, {1});
  Stmt body =
      Seq({Store(out->data, 1, 0), Sync(), Store(out->data, Load(out->data, 0, kI32) + 1, 0)});
  runtime::NDArray arr = MakeArray<int32_t>(kI32, {1});
  ASSERT_TRUE(interp::Run(ir::PrimFunc{"host", {out}, body}, {&arr}).ok());
  EXPECT_EQ(Contents<int32_t>(arr)[0], 2);
}

}  // namespace
}  // namespace tunefarm::interp
