// Parallel loops through the JIT against the interpreter, with the runtime's pool at 1 and at
// 2 threads: captured variables (shape variables, lets, allocations), extents smaller than the
// pool or zero, a nested parallel loop (serial inside its task), an error inside a task, and
// the outlined function and launch in the generated IR.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "compiler/codegen/llvm/llvm_ir_text.h"
#include "runtime/core/thread_pool.h"
#include "tests/unit/compiler/codegen/llvm/codegen_test_util.h"

namespace tunefarm::codegen {
namespace {

using namespace testing;  // NOLINT
using ir::DataType;
using ir::Expr;
using ::testing::HasSubstr;

class CodegenParallelTest : public ::testing::TestWithParam<int> {
 protected:
  void SetUp() override {
    std::string error;
    ASSERT_TRUE(runtime::SetNumThreads(GetParam(), &error)) << error;
  }
  void TearDown() override { runtime::SetNumThreads(0); }
};

// parallel (i, 0, rows) { let s = i * scale; T = alloc; for j: C[i, j] = A[i, j] * s + T... }
ir::PrimFunc RowKernel(const std::string& name, ir::ForKind outer, ir::ForKind inner) {
  ir::Var n("n"), m("m");
  ir::Buffer a("A", kF32, {n, m}), c("C", kF32, {n, m});
  ir::Var i("i", kI32), j("j", kI32), s("s", kF32), t("T", DataType::Handle()), k("k", kI32);
  Expr at = i * m + j;
  ir::Stmt fill = ir::ForNode::Make(k, 0, 4, ir::ForKind::kSerial,
                                    ir::StoreNode::Make(t, ir::Cast(kF32, k + i), k));
  ir::Stmt row = ir::ForNode::Make(
      j, 0, m, inner,
      ir::StoreNode::Make(c->data, At(a, at) * s + ir::LoadNode::Make(kF32, t, ir::FloorMod(j, 4)),
                          at));
  ir::Stmt body = ir::LetStmtNode::Make(
      s, ir::Cast(kF32, i) * 0.5f,
      ir::AllocateNode::Make(t, kF32, {4}, "global", ir::SeqStmtNode::Make({fill, row})));
  return ir::PrimFunc{name, {a, c}, ir::ForNode::Make(i, 0, n, outer, body)};
}

TEST_P(CodegenParallelTest, ParallelRowsMatchTheInterpreter) {
  for (int64_t rows : {0, 1, 3, 37}) {
    SCOPED_TRACE(rows);
    runtime::NDArray av = MakeArray(kF32, {rows, 19}), cv = MakeArray(kF32, {rows, 19});
    Fill(av, 41);
    ExpectMatchesInterpreter(RowKernel("rows", ir::ForKind::kParallel, ir::ForKind::kSerial),
                             {&av, &cv});
  }
}

TEST_P(CodegenParallelTest, ANestedParallelLoopRunsInsideItsTask) {
  runtime::NDArray av = MakeArray(kF32, {9, 21}), cv = MakeArray(kF32, {9, 21});
  Fill(av, 42);
  ExpectMatchesInterpreter(RowKernel("nested", ir::ForKind::kParallel, ir::ForKind::kParallel),
                           {&av, &cv});
}

TEST_P(CodegenParallelTest, AParallelLoopCapturesAnOuterAllocation) {
  ir::Buffer a("A", kF32, {64}), c("C", kF32, {64});
  ir::Var t("T", DataType::Handle()), i("i", kI32), j("j", kI32);
  ir::Stmt produce = ir::ForNode::Make(i, 0, 64, ir::ForKind::kParallel,
                                       ir::StoreNode::Make(t, At(a, i) + 1.0f, i));
  ir::Stmt consume =
      ir::ForNode::Make(j, 0, 64, ir::ForKind::kParallel,
                        ir::StoreNode::Make(c->data, ir::LoadNode::Make(kF32, t, 63 - j), j));
  ir::PrimFunc f{
      "shared_alloc",
      {a, c},
      ir::AllocateNode::Make(t, kF32, {64}, "global", ir::SeqStmtNode::Make({produce, consume}))};
  runtime::NDArray av = MakeArray(kF32, {64}), cv = MakeArray(kF32, {64});
  Fill(av, 43);
  ExpectMatchesInterpreter(f, {&av, &cv});
}

TEST_P(CodegenParallelTest, AFailureInATaskFailsTheCall) {
  ir::Buffer a("A", kF32, {16});
  ir::Var i("i", kI32);
  ir::Stmt body = ir::AssertStmtNode::Make(At(a, i) >= 0.0f, "negative",
                                           ir::StoreNode::Make(a->data, At(a, i) + 1.0f, i));
  ir::PrimFunc f{"assert_in_task", {a}, ir::ForNode::Make(i, 0, 16, ir::ForKind::kParallel, body)};
  runtime::NDArray av = MakeArray(kF32, {16});
  Fill(av, 44, 0, 1);
  EXPECT_TRUE(RunJit(f, {&av}).ok());
  SetElement(av, 11, -5.0);
  EXPECT_FALSE(RunJit(f, {&av}).ok());
}

INSTANTIATE_TEST_SUITE_P(Threads, CodegenParallelTest, ::testing::Values(1, 2),
                         [](const auto& info) { return absl::StrCat(info.param, "_threads"); });

TEST(CodegenParallelIrTest, TheBodyIsOutlinedAndLaunchedThroughTheModulePointer) {
  absl::StatusOr<std::string> ir_text =
      LlvmIrText({RowKernel("rows", ir::ForKind::kParallel, ir::ForKind::kSerial)}, Host(), false);
  ASSERT_TRUE(ir_text.ok()) << ir_text.status();
  EXPECT_THAT(*ir_text, HasSubstr("@__tf_parallel_launch = dso_local global ptr null"));
  EXPECT_THAT(*ir_text,
              HasSubstr("define internal i32 @__tf_parallel_rows_0(i32 %0, i32 %1, ptr %2)"));
  EXPECT_THAT(*ir_text, HasSubstr("load ptr, ptr @__tf_parallel_launch"));
}

}  // namespace
}  // namespace tunefarm::codegen
