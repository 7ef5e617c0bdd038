#include "compiler/passes/buffer_access.h"

#include <gtest/gtest.h>

#include "tests/unit/compiler/ir_types.h"
#include "tests/unit/compiler/passes/test_kernels.h"

namespace tunefarm::passes {
namespace {

using namespace ir;               // NOLINT: tests build IR by hand.
using namespace passes::testing;  // NOLINT

using ir_fixtures::kF32;

TEST(BufferAccessTest, ReadsWritesVariablesAndScopes) {
  Buffer a("A", kF32, {8}), c("C", kF32, {8});
  Var i("i"), n("n"), s("s", DataType::Handle());
  Stmt body = AllocateNode::Make(s, kF32, {8}, "shared",
                                 Loop(i, 8,
                                      Seq({StoreNode::Make(s, FlatLoad(a, i), i),
                                           FlatStore(c, LoadNode::Make(kF32, s, i) * n, i)})));
  BufferAccess access = CollectAccess(body);
  EXPECT_EQ(access.reads, (VarSet{a->data.get(), s.get()}));
  EXPECT_EQ(access.writes, (VarSet{s.get(), c->data.get()}));
  EXPECT_TRUE(access.Touches(c->data.get()));
  EXPECT_TRUE(UsesVar(body, n));
  EXPECT_TRUE(UsesVar(body, i));
  // Buffer variables of Load/Store are not uses as values.
  EXPECT_FALSE(UsesVar(body, s));
  EXPECT_FALSE(UsesVar(body, Var("m")));
  auto scopes = AllocationScopes(body);
  ASSERT_EQ(scopes.size(), 1u);
  EXPECT_EQ(scopes[s.get()], "shared");
}

}  // namespace
}  // namespace tunefarm::passes
