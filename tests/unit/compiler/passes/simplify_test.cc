#include "compiler/passes/simplify.h"

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

// The index arithmetic flattening leaves for a region realized at an offset folds away.
TEST(SimplifyPassTest, FoldsFlatteningLeftovers) {
  Buffer a("A", kF32, {4, 6}), t("T", kF32, {4, 6}), c("C", kF32, {4, 4});
  Var i("i"), j("j");
  Stmt fill = Loop(j, 4, Store(t, Load(a, {i, j + 1}), {i, j + 1}));
  Stmt use = Loop(j, 4, Store(c, Load(t, {i, j + 1}), {i, j}));
  auto flat = StorageFlatten(
      PrimFunc{"f", {a, c}, Loop(i, 4, Realize(t, {{i, 1}, {1, 4}}, Seq({fill, use})))});
  ASSERT_TRUE(flat.ok()) << flat.status();
  auto f = Simplify(*flat);
  ASSERT_TRUE(f.ok()) << f.status();
  std::string text = ToString(f->body);
  EXPECT_NE(text.find("T[j] = A[i*6 + j + 1]"), std::string::npos) << text;
  EXPECT_NE(text.find("C[i*4 + j] = T[j]"), std::string::npos) << text;
  ExpectSameResults(*flat, *f);
}

}  // namespace
}  // namespace tunefarm::passes
