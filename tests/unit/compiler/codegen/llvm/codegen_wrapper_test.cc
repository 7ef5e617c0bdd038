// The packed entry point: shape variables read from the DLTensors (one build, many shapes),
// free variables passed as int and float arguments, a tensor's byte_offset, several kernels in
// one module, and the exported symbols of the ABI.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "compiler/codegen/llvm/llvm_ir_text.h"
#include "tests/unit/compiler/codegen/llvm/codegen_test_util.h"

namespace tunefarm::codegen {
namespace {

using namespace testing;  // NOLINT
using ir::DataType;
using ir::Expr;
using ::testing::HasSubstr;

// C[i, j] = A[i, j] + B[j] over a symbolic n x m.
ir::PrimFunc AddRows() {
  ir::Var n("n"), m("m"), i("i", kI32), j("j", kI32);
  ir::Buffer a("A", kF32, {n, m}), b("B", kF32, {m}), c("C", kF32, {n, m});
  ir::Stmt store = ir::StoreNode::Make(c->data, At(a, i * m + j) + At(b, j), i * m + j);
  ir::Stmt loops = ir::ForNode::Make(i, 0, n, ir::ForKind::kSerial,
                                     ir::ForNode::Make(j, 0, m, ir::ForKind::kSerial, store));
  return ir::PrimFunc{"add_rows", {a, b, c}, loops};
}

TEST(CodegenWrapperTest, ShapeVariablesComeFromTheTensors) {
  absl::StatusOr<std::shared_ptr<runtime::Module>> m = BuildJit({AddRows()}, Host());
  ASSERT_TRUE(m.ok()) << m.status();
  absl::StatusOr<runtime::PackedFunction> fn = (*m)->GetFunction("add_rows");
  ASSERT_TRUE(fn.ok());
  for (auto [rows, cols] : {std::pair<int64_t, int64_t>{1, 1}, {3, 17}, {16, 5}}) {
    runtime::NDArray a = MakeArray(kF32, {rows, cols}), b = MakeArray(kF32, {cols});
    runtime::NDArray c = MakeArray(kF32, {rows, cols});
    Fill(a, 51);
    Fill(b, 52);
    ASSERT_TRUE(fn->Call({&a, &b, &c}).ok());
    for (int64_t r = 0; r < rows; ++r) {
      for (int64_t k = 0; k < cols; ++k) {
        EXPECT_FLOAT_EQ(ElementAt(c, r * cols + k), ElementAt(a, r * cols + k) + ElementAt(b, k));
      }
    }
  }
  // The runtime checks shapes before the kernel runs.
  runtime::NDArray a = MakeArray(kF32, {2, 3}), b = MakeArray(kF32, {4}),
                   c = MakeArray(kF32, {2, 3});
  EXPECT_FALSE(fn->Call({&a, &b, &c}).ok());
}

TEST(CodegenWrapperTest, FreeVariablesAreIntAndFloatArguments) {
  ir::Var count("count", kI64), alpha("alpha", kF32), offset("offset", DataType::Int(8));
  ir::Buffer a("A", kF32, {32}), c("C", kF32, {32});
  ir::Var i("i", kI64);
  ir::Stmt store = ir::StoreNode::Make(c->data, At(a, i) * alpha + ir::Cast(kF32, offset), i);
  ir::PrimFunc f{"scale",
                 {a, c},
                 ir::ForNode::Make(i, ir::IntImm(kI64, 0), count, ir::ForKind::kSerial, store)};
  absl::StatusOr<runtime::FunctionSignature> sig = SignatureOf(f);
  ASSERT_TRUE(sig.ok());
  ASSERT_EQ(sig->args.size(), 5u);
  EXPECT_EQ(sig->args[2].name, "count");
  EXPECT_EQ(sig->args[3].name, "alpha");
  EXPECT_EQ(sig->args[4].name, "offset");
  runtime::NDArray av = MakeArray(kF32, {32}), cv = MakeArray(kF32, {32});
  Fill(av, 53);
  ASSERT_TRUE(RunJit(f, {&av, &cv}, {int64_t{20}, 2.5, -3}).ok());
  for (int k = 0; k < 32; ++k) {
    EXPECT_FLOAT_EQ(ElementAt(cv, k), k < 20 ? ElementAt(av, k) * 2.5f - 3.0f : 0.0f) << k;
  }
}

TEST(CodegenWrapperTest, TheByteOffsetIsApplied) {
  ir::Buffer a("A", kF32, {16}), c("C", kF32, {16});
  ir::PrimFunc f = OneLoop("copy", {a}, c, 16, [&](ir::Var i) { return At(a, i) * 3.0f; });
  absl::StatusOr<std::shared_ptr<runtime::Module>> m = BuildJit({f}, Host());
  ASSERT_TRUE(m.ok()) << m.status();
  runtime::NDArray big = MakeArray(kF32, {32}), cv = MakeArray(kF32, {16});
  Fill(big, 54);
  DLTensor view = *big.dl();
  int64_t shape[] = {16};
  view.shape = shape;
  view.byte_offset = 16 * sizeof(float);  // the second half, still 64-byte aligned
  ASSERT_TRUE((*m)->GetFunction("copy")->Call({&view, &cv}).ok());
  for (int k = 0; k < 16; ++k) EXPECT_FLOAT_EQ(ElementAt(cv, k), 3 * ElementAt(big, 16 + k));
}

TEST(CodegenWrapperTest, OneModuleHoldsSeveralKernels) {
  ir::Buffer a("A", kF32, {8}), c("C", kF32, {8});
  ir::PrimFunc twice = OneLoop("twice", {a}, c, 8, [&](ir::Var i) { return At(a, i) * 2.0f; });
  ir::PrimFunc thrice = OneLoop("thrice", {a}, c, 8, [&](ir::Var i) { return At(a, i) * 3.0f; });
  absl::StatusOr<std::shared_ptr<runtime::Module>> m = BuildJit({twice, thrice}, Host());
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ((*m)->FunctionNames(), (std::vector<std::string>{"twice", "thrice"}));
  runtime::NDArray av = MakeArray(kF32, {8}), cv = MakeArray(kF32, {8});
  Fill(av, 55);
  ASSERT_TRUE((*m)->GetFunction("thrice")->Call({&av, &cv}).ok());
  EXPECT_FLOAT_EQ(ElementAt(cv, 5), 3 * ElementAt(av, 5));
  absl::StatusOr<runtime::PackedFunction> missing = (*m)->GetFunction("four_times");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(missing.status().message(), HasSubstr("twice, thrice"));
}

TEST(CodegenWrapperTest, TheModuleDefinesTheAbiSymbols) {
  absl::StatusOr<std::string> ir_text = LlvmIrText({AddRows()}, Host(), false);
  ASSERT_TRUE(ir_text.ok()) << ir_text.status();
  EXPECT_THAT(*ir_text, HasSubstr("define dso_local i32 @add_rows(ptr %0, ptr %1, i32 %2)"));
  EXPECT_THAT(*ir_text, HasSubstr("@__tf_manifest = dso_local constant"));
  EXPECT_THAT(*ir_text, HasSubstr("tunefarm-manifest"));
  EXPECT_THAT(*ir_text,
              HasSubstr("define internal i32 @__tf_body_add_rows(ptr noalias align 64 %A"));
}

}  // namespace
}  // namespace tunefarm::codegen
