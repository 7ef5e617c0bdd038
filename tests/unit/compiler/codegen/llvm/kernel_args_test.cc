// AnalyzeKernelArgs / SignatureOf: tensors with constant and symbolic extents, shape variables
// read from the first tensor that has them, free variables as trailing scalar arguments, and the
// functions that cannot be described.
#include "compiler/codegen/llvm/kernel_args.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "compiler/codegen/llvm/build.h"
#include "compiler/ir/op.h"
#include "tests/unit/compiler/ir_types.h"

namespace tunefarm::codegen {
namespace {

using ir::DataType;
using ::testing::HasSubstr;

using ir_fixtures::kF32;

TEST(KernelArgsTest, TensorsThenFreeVariables) {
  ir::Var n("n"), m("m"), k("k", DataType::Int(64)), alpha("alpha", kF32);
  ir::Buffer a("A", kF32, {n, 4}), b("B", DataType::Int(8), {m, n}), c("C", DataType::Bool(), {m});
  ir::Var i("i");
  ir::Expr value = ir::Cast(kF32, ir::LoadNode::Make(DataType::Int(8), b->data, i)) * alpha;
  ir::Stmt body = ir::ForNode::Make(i, 0, ir::Cast(DataType::Int(32), k), ir::ForKind::kSerial,
                                    ir::StoreNode::Make(a->data, value + ir::Cast(kF32, n), i));
  ir::PrimFunc f{"scaled", {a, b, c}, body};

  absl::StatusOr<KernelArgs> args = AnalyzeKernelArgs(f);
  ASSERT_TRUE(args.ok()) << args.status();
  ASSERT_EQ(args->shape_vars.size(), 2u);
  EXPECT_EQ(args->shape_vars[0].var.name(), "n");
  EXPECT_EQ(args->shape_vars[0].param, 0);
  EXPECT_EQ(args->shape_vars[0].dim, 0);
  EXPECT_EQ(args->shape_vars[1].var.name(), "m");
  EXPECT_EQ(args->shape_vars[1].param, 1);
  ASSERT_EQ(args->scalars.size(), 2u);
  EXPECT_EQ(args->scalars[0].name(), "k");
  EXPECT_EQ(args->scalars[1].name(), "alpha");

  absl::StatusOr<runtime::FunctionSignature> sig = SignatureOf(f);
  ASSERT_TRUE(sig.ok()) << sig.status();
  EXPECT_EQ(sig->name, "scaled");
  ASSERT_EQ(sig->args.size(), 5u);
  EXPECT_EQ(sig->args[0].kind, runtime::ArgKind::kTensor);
  EXPECT_EQ(sig->args[0].name, "A");
  ASSERT_EQ(sig->args[0].shape.size(), 2u);
  EXPECT_EQ(sig->args[0].shape[0].symbol, "n");
  EXPECT_EQ(sig->args[0].shape[1].value, 4);
  EXPECT_EQ(sig->args[1].dtype.code, kDLInt);
  EXPECT_EQ(sig->args[1].dtype.bits, 8);
  EXPECT_EQ(sig->args[2].dtype.code, kDLUInt);  // bool is uint1
  EXPECT_EQ(sig->args[2].dtype.bits, 1);
  EXPECT_EQ(sig->args[3].kind, runtime::ArgKind::kInt);
  EXPECT_EQ(sig->args[3].name, "k");
  EXPECT_EQ(sig->args[3].dtype.bits, 64);
  EXPECT_EQ(sig->args[4].kind, runtime::ArgKind::kFloat);
  EXPECT_EQ(sig->args[4].name, "alpha");
}

TEST(KernelArgsTest, ACompoundExtentIsAnError) {
  ir::Var n("n");
  ir::Buffer a("A", kF32, {n + 2});
  absl::StatusOr<runtime::FunctionSignature> sig = SignatureOf({"pad", {a}, ir::MakeNop()});
  ASSERT_FALSE(sig.ok());
  EXPECT_THAT(sig.status().message(), HasSubstr("dimension 0 of A is n + 2"));
}

TEST(KernelArgsTest, NamesMustBeCIdentifiersAndUnreserved) {
  ir::Buffer a("A", kF32, {4});
  for (const char* name : {"has space", "9lives", "__tf_manifest", ""}) {
    absl::StatusOr<runtime::FunctionSignature> sig = SignatureOf({name, {a}, ir::MakeNop()});
    ASSERT_FALSE(sig.ok()) << name;
    EXPECT_THAT(sig.status().message(), HasSubstr("C identifier"));
  }
}

TEST(KernelArgsTest, TwoVariablesOfOneNameAreAnError) {
  ir::Var n1("n"), n2("n");
  ir::Buffer a("A", kF32, {n1}), b("B", kF32, {n2});
  absl::StatusOr<runtime::FunctionSignature> sig = SignatureOf({"twins", {a, b}, ir::MakeNop()});
  ASSERT_FALSE(sig.ok());
  EXPECT_THAT(sig.status().message(), HasSubstr("two different variables are named n"));
}

}  // namespace
}  // namespace tunefarm::codegen
