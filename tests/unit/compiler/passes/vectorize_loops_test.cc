#include "compiler/passes/vectorize_loops.h"

#include <gtest/gtest.h>

#include "compiler/ir/printer.h"
#include "tests/unit/compiler/ir_types.h"
#include "tests/unit/compiler/passes/interp_check.h"

namespace tunefarm::passes {
namespace {

using namespace ir;               // NOLINT: tests build IR by hand.
using namespace passes::testing;  // NOLINT

using ir_fixtures::kF32;

// The vectorized body as text, after checking it computes what the loop did.
std::string Vectorized(Stmt body, std::vector<Buffer> params) {
  PrimFunc before{"f", std::move(params), std::move(body)};
  auto f = VectorizeLoops(before);
  EXPECT_TRUE(f.ok()) << f.status();
  if (!f.ok()) return "";
  ExpectSameResults(before, *f);
  return ToString(f->body);
}

TEST(VectorizeLoopsTest, ElementwiseBecomesRampLoadsAndStore) {
  Buffer a("A", kF32, {16}), b("B", kF32, {16}), c("C", kF32, {16});
  Var j("j"), i("i");
  Stmt body = Loop(
      j, 4,
      Loop(i, 4, FlatStore(c, FlatLoad(a, j * 4 + i) + FlatLoad(b, j * 4 + i) * 2.0f, j * 4 + i),
           ForKind::kVectorized));
  EXPECT_EQ(Vectorized(body, {a, b, c}),
            "for (j, 0, 4) {\n"
            "  C[ramp(j*4, 1, 4)] = A[ramp(j*4, 1, 4)] + B[ramp(j*4, 1, 4)]*x4(2.0f)\n"
            "}\n");
}

TEST(VectorizeLoopsTest, StridedIndexStaysARampAndLetsBecomeVectors) {
  Buffer a("A", kF32, {32}), c("C", kF32, {8});
  Var i("i"), x("x", kF32);
  Stmt body = Loop(i, 8, LetStmtNode::Make(x, FlatLoad(a, i * 4 + 1), FlatStore(c, x * x, i)),
                   ForKind::kVectorized);
  EXPECT_EQ(Vectorized(body, {a, c}),
            "let x = A[ramp(1, 4, 8)]\n"
            "C[ramp(0, 1, 8)] = x*x\n");
}

TEST(VectorizeLoopsTest, UniformBranchIsKeptAroundVectorCode) {
  Buffer a("A", kF32, {8}), c("C", kF32, {8});
  Var i("i"), k("k");
  Stmt body = Loop(k, 2,
                   Loop(i, 4, IfThenElseNode::Make(k > 0, FlatStore(c, FlatLoad(a, k * 4 + i), i)),
                        ForKind::kVectorized));
  EXPECT_EQ(Vectorized(body, {a, c}),
            "for (k, 0, 2) {\n"
            "  if (k > 0) {\n"
            "    C[ramp(0, 1, 4)] = A[ramp(k*4, 1, 4)]\n"
            "  }\n"
            "}\n");
}

// Each of these bodies must stay a serial loop: vectorizing it would be wrong or impossible.
TEST(VectorizeLoopsTest, FallsBackToSerialWhenTheBodyCannotBeVectorized) {
  Buffer a("A", kF32, {8}), c("C", kF32, {8});
  Var i("i"), k("k");
  std::vector<Stmt> bodies = {
      FlatStore(c, FlatLoad(c, 0) + FlatLoad(a, i), 0),              // reduction
      Loop(k, 2, FlatStore(c, FlatLoad(a, i), i)),                   // inner loop
      IfThenElseNode::Make(i < 3, FlatStore(c, FlatLoad(a, i), i)),  // lane-varying if
      FlatStore(c, IfThenElse(i < 7, FlatLoad(a, i + 1), 0.0f), i),  // guarded load
      EvaluateNode::Make(Call(Intrinsic::kSyncThreads, {})),         // barrier
      AllocateNode::Make(Var("t", DataType::Handle()), kF32, {4}, "local", FlatStore(c, 1.0f, i)),
  };
  for (const Stmt& body : bodies) {
    PrimFunc before{"f", {a, c}, Loop(i, 8, body, ForKind::kVectorized)};
    auto f = VectorizeLoops(before);
    ASSERT_TRUE(f.ok());
    if (CountBarriers(body) == 0) ExpectSameResults(before, *f);
    const auto* out = f->body.As<ForNode>();
    ASSERT_NE(out, nullptr) << ToString(f->body);
    EXPECT_EQ(out->for_kind, ForKind::kSerial) << ToString(f->body);
  }
}

TEST(VectorizeLoopsTest, InnermostOfTwoVectorizedLoopsWins) {
  Buffer a("A", kF32, {16}), c("C", kF32, {16});
  Var i("i"), j("j");
  Stmt body =
      Loop(j, 4, Loop(i, 4, FlatStore(c, FlatLoad(a, j * 4 + i), j * 4 + i), ForKind::kVectorized),
           ForKind::kVectorized);
  EXPECT_EQ(Vectorized(body, {a, c}),
            "for (j, 0, 4) {\n"
            "  C[ramp(j*4, 1, 4)] = A[ramp(j*4, 1, 4)]\n"
            "}\n");
}

TEST(VectorizeLoopsTest, SymbolicExtentStaysSerial) {
  Buffer a("A", kF32, {8}), c("C", kF32, {8});
  Var i("i"), n("n");
  Stmt loop = ForNode::Make(i, 0, n, ForKind::kVectorized, FlatStore(c, FlatLoad(a, i), i));
  auto f = VectorizeLoops(PrimFunc{"f", {a, c}, loop});
  ASSERT_TRUE(f.ok());
  EXPECT_EQ(f->body.As<ForNode>()->for_kind, ForKind::kSerial);
}

}  // namespace
}  // namespace tunefarm::passes
