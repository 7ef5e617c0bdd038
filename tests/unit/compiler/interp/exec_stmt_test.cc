// Serial statements: loops of every kind, lets, branches, sequences, allocations (poisoned, with
// dynamic extents), asserts, and the scope errors the builder reports before running.
#include <cmath>
#include <cstdint>
#include <gtest/gtest.h>

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

Stmt Store(const ir::Buffer& b, Expr value, Expr index) {
  return ir::StoreNode::Make(b->data, std::move(value), std::move(index));
}
Expr Load(const ir::Buffer& b, Expr index) {
  return ir::LoadNode::Make(b->dtype, b->data, std::move(index));
}

TEST(ExecStmtTest, EveryLoopKindRunsSeriallyInOrder) {
  for (ir::ForKind kind : {ir::ForKind::kSerial, ir::ForKind::kParallel, ir::ForKind::kVectorized,
                           ir::ForKind::kUnrolled, ir::ForKind::kThreadBinding}) {
    SCOPED_TRACE(ir::ForKindName(kind));
    ir::Buffer out("Out", kI32, {6});
    ir::Var i("i");
    // out[i] = out[i - 1] + i: only correct if iterations run in order.
    Stmt body = Store(out, Load(out, i - 1) + i, i);
    Stmt loop = ir::ForNode::Make(i, 1, 5, kind, body);
    runtime::NDArray arr = MakeArray<int32_t>(kI32, {6});
    ASSERT_TRUE(interp::Run(ir::PrimFunc{"prefix", {out}, loop}, {&arr}).ok());
    EXPECT_EQ(Contents<int32_t>(arr), (std::vector<int32_t>{0, 1, 3, 6, 10, 15}));
  }
}

TEST(ExecStmtTest, LoopsWithEmptyOrNegativeExtentDoNothing) {
  ir::Buffer out("Out", kI32, {1});
  ir::Var i("i", DataType::Int(64));
  for (int64_t extent : {0, -3}) {
    Stmt loop = ir::ForNode::Make(i, int64_t{0}, extent, ir::ForKind::kSerial,
                                  Store(out, ir::IntImm(kI32, 1), 0));
    runtime::NDArray arr = MakeArray<int32_t>(kI32, {1});
    ASSERT_TRUE(interp::Run(ir::PrimFunc{"empty", {out}, loop}, {&arr}).ok());
    EXPECT_EQ(Contents<int32_t>(arr)[0], 0);
  }
}

TEST(ExecStmtTest, LetIfAndSequence) {
  ir::Buffer out("Out", kI32, {4});
  ir::Var i("i"), sq("sq");
  Stmt branch = ir::IfThenElseNode::Make(ir::Likely(sq > 3), Store(out, sq, i),
                                         Store(out, ir::IntImm(kI32, -1), i));
  Stmt body =
      ir::ForNode::Make(i, 0, 4, ir::ForKind::kSerial, ir::LetStmtNode::Make(sq, i * i, branch));
  Stmt seq = ir::SeqStmtNode::Make({body, Store(out, Load(out, 3) + 1, 3)});
  runtime::NDArray arr = MakeArray<int32_t>(kI32, {4});
  ASSERT_TRUE(interp::Run(ir::PrimFunc{"let_if", {out}, seq}, {&arr}).ok());
  EXPECT_EQ(Contents<int32_t>(arr), (std::vector<int32_t>{-1, -1, 4, 10}));
}

TEST(ExecStmtTest, VectorLetMayShadowItsOwnVariable) {
  ir::Buffer out("Out", kI32, {4});
  ir::Var v("v", DataType::Int(32, 4));
  const Expr two = ir::BroadcastNode::Make(2, 4), ten = ir::BroadcastNode::Make(10, 4);
  // let v = ramp(0, 1, 4); let v = if_then_else(v < 2, v * 10, v); out[0:4] = v
  Expr shadow = ir::CallNode::Make(ir::Intrinsic::kIfThenElse,
                                   {ir::LTNode::Make(v, two), ir::MulNode::Make(v, ten), v});
  Stmt body = ir::LetStmtNode::Make(
      v, ir::RampNode::Make(0, 1, 4),
      ir::LetStmtNode::Make(v, shadow,
                            ir::StoreNode::Make(out->data, v, ir::RampNode::Make(0, 1, 4))));
  runtime::NDArray arr = MakeArray<int32_t>(kI32, {4});
  ASSERT_TRUE(interp::Run(ir::PrimFunc{"shadow", {out}, body}, {&arr}).ok());
  EXPECT_EQ(Contents<int32_t>(arr), (std::vector<int32_t>{0, 10, 2, 3}));
}

TEST(ExecStmtTest, AllocateGivesPoisonedScratchOfDynamicSize) {
  ir::Var n("n");
  ir::Buffer in("In", kF32, {n}), out("Out", kF32, {n});
  ir::Var tmp("tmp", DataType::Handle()), i("i");
  auto tmp_load = [&](Expr idx) { return ir::LoadNode::Make(kF32, tmp, idx); };
  // tmp[i] = 2 * in[i] for even i only; out[i] = tmp[i].
  Stmt fill =
      ir::ForNode::Make(i, 0, n, ir::ForKind::kSerial,
                        ir::IfThenElseNode::Make(ir::FloorMod(i, 2) == 0,
                                                 ir::StoreNode::Make(tmp, Load(in, i) * 2.0f, i)));
  Stmt copy = ir::ForNode::Make(i, 0, n, ir::ForKind::kSerial, Store(out, tmp_load(i), i));
  Stmt alloc =
      ir::AllocateNode::Make(tmp, kF32, {n}, "global", ir::SeqStmtNode::Make({fill, copy}));
  runtime::NDArray a = MakeArray<float>(kF32, {3}, {1, 2, 3}), b = MakeArray<float>(kF32, {3});
  ASSERT_TRUE(interp::Run(ir::PrimFunc{"alloc", {in, out}, alloc}, {&a, &b}).ok());
  std::vector<float> r = Contents<float>(b);
  EXPECT_EQ(r[0], 2.0f);
  EXPECT_TRUE(std::isnan(r[1])) << "unwritten scratch must read as poison, not zero";
  EXPECT_EQ(r[2], 6.0f);
}

TEST(ExecStmtTest, BadAllocationSizesAreErrors) {
  ir::Buffer out("Out", kF32, {1});
  ir::Var tmp("tmp", DataType::Handle());
  for (int64_t extent : {int64_t{-1}, int64_t{1} << 40}) {
    Stmt alloc = ir::AllocateNode::Make(tmp, kF32, {ir::IntImm(DataType::Int(64), extent)}, "local",
                                        Store(out, ir::LoadNode::Make(kF32, tmp, 0), 0));
    runtime::NDArray arr = MakeArray<float>(kF32, {1});
    absl::Status s = interp::Run(ir::PrimFunc{"alloc", {out}, alloc}, {&arr});
    EXPECT_FALSE(s.ok());
    EXPECT_NE(s.message().find("tmp"), std::string::npos) << s;
  }
}

TEST(ExecStmtTest, AssertFailsWithItsMessage) {
  ir::Var n("n");
  ir::Buffer a("A", kF32, {n});
  Stmt body = ir::AssertStmtNode::Make(ir::FloorMod(n, 4) == 0, "n must be a multiple of 4",
                                       Store(a, ir::FloatImm(kF32, 1), 0));
  runtime::NDArray ok = MakeArray<float>(kF32, {8}), bad = MakeArray<float>(kF32, {6});
  ir::PrimFunc f{"assert", {a}, body};
  EXPECT_TRUE(interp::Run(f, {&ok}).ok());
  EXPECT_EQ(Contents<float>(ok)[0], 1.0f);
  absl::Status s = interp::Run(f, {&bad});
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("assertion failed: n must be a multiple of 4"), std::string::npos);
  EXPECT_EQ(Contents<float>(bad)[0], 0.0f);
}

TEST(ExecStmtTest, EvaluateReportsErrorsOfItsExpression) {
  ir::Buffer a("A", kF32, {2});
  runtime::NDArray arr = MakeArray<float>(kF32, {2});
  absl::Status s =
      interp::Run(ir::PrimFunc{"eval", {a}, ir::EvaluateNode::Make(Load(a, 2))}, {&arr});
  EXPECT_EQ(s.code(), absl::StatusCode::kOutOfRange);
  EXPECT_TRUE(interp::Run(ir::PrimFunc{"nop", {a}, ir::MakeNop()}, {&arr}).ok());
}

TEST(ExecStmtTest, VariablesAndBuffersOutsideTheirScopeAreRejected) {
  ir::Buffer out("Out", kI32, {4});
  ir::Var i("i");
  Stmt loop = ir::ForNode::Make(i, 0, 4, ir::ForKind::kSerial, Store(out, i, i));
  Stmt after = ir::SeqStmtNode::Make({loop, Store(out, i, 0)});
  runtime::NDArray arr = MakeArray<int32_t>(kI32, {4});
  absl::Status s = interp::Run(ir::PrimFunc{"scope", {out}, after}, {&arr});
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("variable i is not bound"), std::string::npos) << s;

  ir::Var tmp("tmp", DataType::Handle());
  Stmt alloc = ir::AllocateNode::Make(tmp, kI32, {4}, "local", ir::StoreNode::Make(tmp, 1, 0));
  Stmt use = ir::SeqStmtNode::Make({alloc, Store(out, ir::LoadNode::Make(kI32, tmp, 0), 0)});
  s = interp::Run(ir::PrimFunc{"buffer_scope", {out}, use}, {&arr});
  EXPECT_NE(s.message().find("Load of tmp"), std::string::npos) << s;

  Stmt scope = ir::AllocateNode::Make(tmp, kI32, {4}, "texture", ir::StoreNode::Make(tmp, 1, 0));
  s = interp::Run(ir::PrimFunc{"texture", {out}, scope}, {&arr});
  EXPECT_EQ(s.code(), absl::StatusCode::kUnimplemented);
}

}  // namespace
}  // namespace tunefarm::interp
