#include "compiler/ir/arith/var_use.h"

#include <gtest/gtest.h>

#include "compiler/ir/op.h"

namespace tunefarm::arith {
namespace {

using ir::DataType;
using ir::Var;

TEST(VarUseTest, ExpressionsAndStatements) {
  Var x("x"), y("y"), data("data", DataType::Handle());
  EXPECT_TRUE(UsesVar(x + 1, x.get()));
  EXPECT_FALSE(UsesVar(x + 1, y.get()));
  EXPECT_TRUE(UsesVar(ir::LoadNode::Make(DataType::Float(32), data, 0), data.get()));
  ir::Stmt store = ir::StoreNode::Make(data, ir::FloatImm(DataType::Float(32), 1), y);
  EXPECT_TRUE(UsesVar(store, data.get()));
  EXPECT_TRUE(UsesVar(store, y.get()));
  EXPECT_FALSE(UsesVar(store, x.get()));
  ir::Buffer b("B", DataType::Int(32), {4});
  EXPECT_TRUE(UsesVar(ir::BufferLoadNode::Make(b, {0}), b->data.get()));
  ir::Stmt attr = ir::AttrStmtNode::Make(x, "pragma_hint", 1, ir::MakeNop());
  EXPECT_TRUE(UsesVar(attr, x.get()));
  EXPECT_TRUE(UsesVar(x * y, [&](const ir::VarNode* v) { return v == y.get(); }));
}

}  // namespace
}  // namespace tunefarm::arith
