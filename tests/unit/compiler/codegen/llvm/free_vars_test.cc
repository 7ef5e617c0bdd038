// FreeVars: what a statement reads but does not bind, in order of first use.
#include "compiler/codegen/llvm/free_vars.h"

#include <gtest/gtest.h>

#include "compiler/ir/op.h"

namespace tunefarm::codegen {
namespace {

using ir::DataType;

std::vector<std::string> Names(const std::vector<ir::Var>& vars) {
  std::vector<std::string> names;
  for (const ir::Var& v : vars) names.push_back(v.name());
  return names;
}

TEST(FreeVarsTest, LoopsLetsAndAllocationsBindTheirVariables) {
  ir::Var n("n"), k("k"), i("i"), x("x"), a("A", DataType::Handle()), t("T", DataType::Handle());
  ir::Stmt body = ir::SeqStmtNode::Make({
      ir::StoreNode::Make(t, ir::LoadNode::Make(DataType::Float(32), a, i + k), i),
      ir::LetStmtNode::Make(x, i * 2,
                            ir::StoreNode::Make(a, ir::FloatImm(DataType::Float(32), 1), x)),
  });
  ir::Stmt s = ir::AllocateNode::Make(t, DataType::Float(32), {n}, "global",
                                      ir::ForNode::Make(i, 0, n, ir::ForKind::kSerial, body));
  EXPECT_EQ(Names(FreeVars(s)), (std::vector<std::string>{"n", "A", "k"}));
}

TEST(FreeVarsTest, ThreadAttributesBindTheirIterVar) {
  ir::Var tx("threadIdx.x"), out("C", DataType::Handle());
  ir::IterVar iv(ir::Range::FromMinExtent(0, 4), tx, ir::IterVarType::kThreadIndex, "threadIdx.x");
  ir::Stmt s =
      ir::AttrStmtNode::Make(iv, ir::attr::kThreadExtent, 4, ir::StoreNode::Make(out, tx, tx));
  EXPECT_EQ(Names(FreeVars(s)), (std::vector<std::string>{"C"}));
}

}  // namespace
}  // namespace tunefarm::codegen
