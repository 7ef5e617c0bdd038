#include "compiler/passes/storage_flatten.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "compiler/ir/printer.h"
#include "tests/unit/compiler/ir_types.h"
#include "tests/unit/compiler/passes/interp_check.h"

namespace tunefarm::passes {
namespace {

using namespace ir;               // NOLINT: tests build IR by hand.
using namespace passes::testing;  // NOLINT

using ir_fixtures::kF32;

TEST(StorageFlattenTest, RealizeBecomesAllocateAndAccessesRowMajor) {
  Buffer a("A", kF32, {8, 4}), b("B", kF32, {8, 4}, "local"), c("C", kF32, {8, 4});
  Var i("i"), j("j");
  Stmt fill = Loop(i, 8, Loop(j, 4, Store(b, Load(a, {i, j}) * 2.0f, {i, j})));
  Stmt use = Loop(i, 8, Loop(j, 4, Store(c, Load(b, {i, j}) + 1.0f, {i, j})));
  PrimFunc before{"f", {a, c}, Realize(b, {{0, 8}, {0, 4}}, Seq({Produce(b, fill), use}))};
  auto f = StorageFlatten(before);
  ASSERT_TRUE(f.ok()) << f.status();
  EXPECT_EQ(ToString(f->body),
            "allocate B[float32 * 32], scope local\n"
            "// produce B\n"
            "for (i, 0, 8) {\n"
            "  for (j, 0, 4) {\n"
            "    B[i*4 + j] = A[i*4 + j]*2.0f\n"
            "  }\n"
            "}\n"
            "for (i, 0, 8) {\n"
            "  for (j, 0, 4) {\n"
            "    C[i*4 + j] = B[i*4 + j] + 1.0f\n"
            "  }\n"
            "}\n");
  ExpectSameResults(before, *f);
}

// A region realized inside a loop (as compute_at leaves it) is indexed relative to its min.
TEST(StorageFlattenTest, RegionWithOffsetMinIsIndexedFromItsMin) {
  Buffer a("A", kF32, {4, 6}), t("T", kF32, {4, 6}), c("C", kF32, {4, 3});
  Var i("i"), j("j"), k("k");
  Stmt fill = Loop(j, 4, Store(t, Load(a, {i, j + 1}), {i, j + 1}));
  Stmt use = Loop(k, 3, Store(c, Load(t, {i, k + 1}) + Load(t, {i, k + 2}), {i, k}));
  Stmt body = Loop(i, 4, Realize(t, {{i, 1}, {1, 4}}, Seq({Produce(t, fill), use})));
  PrimFunc before{"f", {a, c}, body};
  auto f = StorageFlatten(before);
  ASSERT_TRUE(f.ok()) << f.status();
  std::string text = ToString(f->body);
  EXPECT_NE(text.find("allocate T[float32 * 4], scope global"), std::string::npos) << text;
  EXPECT_NE(text.find("T[(i - i)*4 + (j + 1 - 1)] = A[i*6 + (j + 1)]"), std::string::npos) << text;
  ExpectSameResults(before, *f);
}

TEST(StorageFlattenTest, SymbolicParameterShapeGivesSymbolicStrides) {
  Var n("n"), i("i"), j("j");
  Buffer a("A", kF32, {n, 3}), c("C", kF32, {3, n});
  Stmt body =
      ForNode::Make(i, 0, n, ForKind::kSerial, Loop(j, 3, Store(c, Load(a, {i, j}), {j, i})));
  auto f = StorageFlatten(PrimFunc{"f", {a, c}, body});
  ASSERT_TRUE(f.ok()) << f.status();
  EXPECT_EQ(ToString(f->body),
            "for (i, 0, n) {\n"
            "  for (j, 0, 3) {\n"
            "    C[j*n + i] = A[i*3 + j]\n"
            "  }\n"
            "}\n");
}

TEST(StorageFlattenTest, AccessOutsideRealizeIsAnError) {
  Buffer a("A", kF32, {4}), t("T", kF32, {4}), c("C", kF32, {4});
  Var i("i");
  Stmt body = Seq({Realize(t, {{0, 4}}, Loop(i, 4, Store(t, Load(a, {i}), {i}))),
                   Loop(i, 4, Store(c, Load(t, {i}), {i}))});
  auto f = StorageFlatten(PrimFunc{"f", {a, c}, body});
  EXPECT_EQ(f.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(f.status().message(), ::testing::HasSubstr("buffer T is read outside its realize"));
}

}  // namespace
}  // namespace tunefarm::passes
