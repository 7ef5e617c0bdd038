// Statements through the JIT: loops with offsets and nests, loops the passes left marked
// unrolled or vectorized (correct, with LLVM loop hints), branches with `likely` weights, lets,
// failing asserts, virtual threads, and the constructs a CPU target rejects with a clear error.
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

// C[i*m + j] = A[i*m + j] * (i + 1) + j for i in [0, n), j in [lo, lo + m - lo): rows of `m`.
ir::PrimFunc Nest(const std::string& name, ir::ForKind inner_kind, ir::Expr m, int lo,
                  const ir::Buffer& a, const ir::Buffer& c) {
  ir::Var i("i", kI32), j("j", kI32);
  Expr at = i * m + j;
  ir::Stmt store =
      ir::StoreNode::Make(c->data, At(a, at) * ir::Cast(kF32, i + 1) + ir::Cast(kF32, j), at);
  ir::Stmt inner = ir::ForNode::Make(j, lo, m - lo, inner_kind, store);
  return ir::PrimFunc{name, {a, c}, ir::ForNode::Make(i, 0, 4, ir::ForKind::kSerial, inner)};
}

TEST(CodegenStmtTest, LoopNestsWithOffsetsMatchTheInterpreter) {
  ir::Buffer a("A", kF32, {64}), c("C", kF32, {64});
  runtime::NDArray av = MakeArray(kF32, {64}), cv = MakeArray(kF32, {64});
  Fill(av, 31);
  ExpectMatchesInterpreter(Nest("nest", ir::ForKind::kSerial, 16, 3, a, c), {&av, &cv});
}

// The passes expand unrolled and vectorized loops of constant extent; what reaches codegen
// still marked (here: a symbolic extent) is run as a loop with a hint to LLVM.
TEST(CodegenStmtTest, SurvivingUnrolledAndVectorizedLoopsGetLoopHints) {
  ir::Var m("m");
  ir::Buffer a("A", kF32, {4, m}), c("C", kF32, {4, m});
  const std::pair<ir::ForKind, const char*> kinds[] = {
      {ir::ForKind::kUnrolled, "llvm.loop.unroll.full"},
      {ir::ForKind::kVectorized, "llvm.loop.vectorize.enable"}};
  for (const auto& [kind, hint] : kinds) {
    ir::PrimFunc f = Nest(absl::StrCat("hinted_", ir::ForKindName(kind)), kind, m, 0, a, c);
    absl::StatusOr<std::string> ir_text = LlvmIrText({f}, Host(), false);
    ASSERT_TRUE(ir_text.ok()) << ir_text.status();
    EXPECT_THAT(*ir_text, HasSubstr(hint));
    runtime::NDArray av = MakeArray(kF32, {4, 13}), cv = MakeArray(kF32, {4, 13});
    Fill(av, 32);
    ExpectMatchesInterpreter(f, {&av, &cv});
  }
}

// A recurrence (C[i] depends on C[i-1]) does not vectorize, so the loop survives O3 unless the
// schedule marked it unrolled: LLVM's own heuristic unrolling is off.
TEST(CodegenStmtTest, LlvmUnrollsOnlyLoopsMarkedUnrolled) {
  ir::Buffer a("A", kF32, {17}), c("C", kF32, {17});
  for (ir::ForKind kind : {ir::ForKind::kSerial, ir::ForKind::kUnrolled}) {
    ir::Var i("i", kI32);
    ir::Stmt body = ir::StoreNode::Make(c->data, At(c, i) * At(a, i + 1) + 1.0f, i + 1);
    ir::PrimFunc f{"recurrence", {a, c}, ir::ForNode::Make(i, 0, 16, kind, body)};
    absl::StatusOr<std::string> ir_text = LlvmIrText({f}, Host(), true);
    ASSERT_TRUE(ir_text.ok()) << ir_text.status();
    size_t multiplies = 0;
    for (size_t at = ir_text->find("fmul"); at != std::string::npos;
         at = ir_text->find("fmul", at + 1)) {
      ++multiplies;
    }
    EXPECT_EQ(multiplies, kind == ir::ForKind::kUnrolled ? 16u : 1u) << ir::ForKindName(kind);
    runtime::NDArray av = MakeArray(kF32, {17}), cv = MakeArray(kF32, {17});
    Fill(av, 34, 0.5, 1.5);
    ExpectMatchesInterpreter(f, {&av, &cv});
  }
}

TEST(CodegenStmtTest, BranchesLetsAndLikelyWeights) {
  ir::Buffer a("A", kF32, {30}), c("C", kF32, {32});
  ir::Var i("i", kI32), x("x", kI32);
  ir::Stmt body = ir::LetStmtNode::Make(
      x, i * 2,
      ir::IfThenElseNode::Make(
          ir::Likely(i < 30),
          ir::IfThenElseNode::Make(At(a, i) > 0.0f,
                                   ir::StoreNode::Make(c->data, ir::Cast(kF32, x), i),
                                   ir::StoreNode::Make(c->data, At(a, i), i)),
          ir::StoreNode::Make(c->data, -1.0f, i)));
  ir::PrimFunc f{"branches", {a, c}, ir::ForNode::Make(i, 0, 32, ir::ForKind::kSerial, body)};
  runtime::NDArray av = MakeArray(kF32, {30}), cv = MakeArray(kF32, {32});
  Fill(av, 33);
  ExpectMatchesInterpreter(f, {&av, &cv});
  absl::StatusOr<std::string> ir_text = LlvmIrText({f}, Host(), false);
  ASSERT_TRUE(ir_text.ok());
  EXPECT_THAT(*ir_text, HasSubstr("!prof"));
  EXPECT_THAT(*ir_text, HasSubstr("branch_weights"));
}

TEST(CodegenStmtTest, AFailedAssertFailsTheCall) {
  ir::Buffer a("A", kF32, {4});
  ir::Stmt s = ir::AssertStmtNode::Make(At(a, 0) > 0.0f, "A[0] must be positive",
                                        ir::StoreNode::Make(a->data, 1.0f, 1));
  ir::PrimFunc f{"checked", {a}, s};
  runtime::NDArray av = MakeArray(kF32, {4});
  SetElement(av, 0, 2.0);
  EXPECT_TRUE(RunJit(f, {&av}).ok());
  EXPECT_EQ(ElementAt(av, 1), 1.0);
  SetElement(av, 0, -2.0);
  SetElement(av, 1, 0.0);
  EXPECT_FALSE(RunJit(f, {&av}).ok());
  EXPECT_EQ(ElementAt(av, 1), 0.0);  // the body did not run
}

// With no barriers on a CPU, virtual threads run one after another.
TEST(CodegenStmtTest, VirtualThreadsRunAsALoop) {
  ir::Buffer c("C", kF32, {8});
  ir::Var vt("vthread", kI32);
  ir::IterVar iv(ir::Range::FromMinExtent(0, 8), vt, ir::IterVarType::kThreadIndex, "vthread");
  ir::Stmt s = ir::AttrStmtNode::Make(iv, ir::attr::kVirtualThread, 8,
                                      ir::StoreNode::Make(c->data, ir::Cast(kF32, vt * vt), vt));
  runtime::NDArray cv = MakeArray(kF32, {8});
  ASSERT_TRUE(RunJit({"vthreads", {c}, s}, {&cv}).ok());
  for (int k = 0; k < 8; ++k) EXPECT_EQ(ElementAt(cv, k), k * k);
}

void ExpectBuildError(const ir::PrimFunc& f, const std::vector<std::string>& parts) {
  absl::StatusOr<std::shared_ptr<runtime::Module>> m = BuildJit({f}, Host());
  ASSERT_FALSE(m.ok()) << f.name;
  for (const std::string& p : parts) EXPECT_THAT(m.status().message(), HasSubstr(p));
  EXPECT_THAT(m.status().message(), HasSubstr(f.name));
}

TEST(CodegenStmtTest, ThreadBindingsAreAClearErrorOnACpu) {
  ir::Buffer c("C", kF32, {64});
  ir::Var bx("blockIdx.x", kI32), tx("threadIdx.x", kI32);
  ir::Stmt loop = ir::ForNode::Make(tx, 0, 64, ir::ForKind::kThreadBinding,
                                    ir::StoreNode::Make(c->data, 1.0f, tx), "threadIdx.x");
  ExpectBuildError({"bound_loop", {c}, loop}, {"threadIdx.x", "CPU target"});
  ir::IterVar iv(ir::Range::FromMinExtent(0, 64), bx, ir::IterVarType::kThreadIndex, "blockIdx.x");
  ir::Stmt attr = ir::AttrStmtNode::Make(iv, ir::attr::kThreadExtent, 64,
                                         ir::StoreNode::Make(c->data, 1.0f, bx));
  ExpectBuildError({"bound_attr", {c}, attr}, {"thread binding blockIdx.x", "CPU target"});
}

TEST(CodegenStmtTest, UnflattenedBuffersAreAnError) {
  ir::Buffer c("C", kF32, {4, 4});
  ir::Stmt store = ir::BufferStoreNode::Make(c, 1.0f, {0, 0});
  ExpectBuildError({"unflattened", {c}, store}, {"BufferStore to C", "storage_flatten"});
}

}  // namespace
}  // namespace tunefarm::codegen
