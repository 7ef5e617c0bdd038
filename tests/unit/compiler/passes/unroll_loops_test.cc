#include "compiler/passes/unroll_loops.h"

#include <gtest/gtest.h>

#include "compiler/ir/printer.h"
#include "tests/unit/compiler/ir_types.h"
#include "tests/unit/compiler/passes/interp_check.h"

namespace tunefarm::passes {
namespace {

using namespace ir;               // NOLINT: tests build IR by hand.
using namespace passes::testing;  // NOLINT

using ir_fixtures::kF32;

std::string Unrolled(Stmt body, std::vector<Buffer> params) {
  auto f = UnrollLoops(PrimFunc{"f", std::move(params), std::move(body)});
  EXPECT_TRUE(f.ok()) << f.status();
  return f.ok() ? ToString(f->body) : "";
}

TEST(UnrollLoopsTest, ConstantExtentBecomesCopiesWithConstantIndices) {
  Buffer a("A", kF32, {8}), c("C", kF32, {8});
  Var i("i"), j("j");
  Stmt body = Loop(j, 2, Loop(i, 2, FlatStore(c, FlatLoad(a, i), j * 2 + i), ForKind::kUnrolled),
                   ForKind::kUnrolled);
  ExpectSameResults(PrimFunc{"f", {a, c}, body}, *UnrollLoops(PrimFunc{"f", {a, c}, body}));
  EXPECT_EQ(Unrolled(body, {a, c}),
            "C[0] = A[0]\n"
            "C[1] = A[1]\n"
            "C[2] = A[0]\n"
            "C[3] = A[1]\n");
}

TEST(UnrollLoopsTest, OffsetMinIsAddedAndSerialLoopsStay) {
  Buffer c("C", kF32, {8});
  Var i("i"), k("k"), n("n");
  Stmt body = Loop(k, 2, ForNode::Make(i, n, 2, ForKind::kUnrolled, FlatStore(c, 1.0f, k + i)));
  EXPECT_EQ(Unrolled(body, {c}),
            "for (k, 0, 2) {\n"
            "  C[k + (n + 0)] = 1.0f\n"
            "  C[k + (n + 1)] = 1.0f\n"
            "}\n");
}

TEST(UnrollLoopsTest, SymbolicExtentStaysSerial) {
  Buffer c("C", kF32, {8});
  Var i("i"), n("n");
  Stmt body = ForNode::Make(i, 0, n, ForKind::kUnrolled, FlatStore(c, 1.0f, i));
  EXPECT_EQ(Unrolled(body, {c}),
            "for (i, 0, n) {\n"
            "  C[i] = 1.0f\n"
            "}\n");
}

}  // namespace
}  // namespace tunefarm::passes
