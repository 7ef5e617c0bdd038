// Loads, stores and allocations through the JIT against the interpreter: contiguous vector
// accesses, gathers and scatters (strided and indirect indices), broadcast indices, bool
// buffers, stack and heap allocations; and what reaches LLVM: alignment, noalias, alias scopes.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "compiler/codegen/llvm/llvm_ir_text.h"
#include "runtime/core/workspace_pool.h"
#include "tests/unit/compiler/codegen/llvm/codegen_test_util.h"

namespace tunefarm::codegen {
namespace {

using namespace testing;  // NOLINT
using ir::DataType;
using ir::Expr;
using ::testing::HasSubstr;

ir::Expr Ramp(ir::Expr base, int stride, int lanes) {
  return ir::RampNode::Make(base, stride, lanes);
}

TEST(CodegenMemoryTest, VectorLoadsStoresGathersAndScatters) {
  ir::Buffer a("A", kF32, {96}), idx("I", kI32, {32}), c("C", kF32, {96});
  ir::Var i("i", kI32);
  Expr contiguous = At(a, Ramp(i * 8, 1, 8));
  Expr strided = At(a, Ramp(i, 3, 8));                        // gather, stride 3
  Expr indirect = At(a, At(idx, Ramp(i * 8, 1, 8)));          // gather, computed indices
  Expr broadcast = At(a, ir::BroadcastNode::Make(i + 1, 8));  // one element, 8 times
  ir::Stmt body = ir::SeqStmtNode::Make({
      ir::StoreNode::Make(c->data, contiguous + strided, Ramp(i * 8, 1, 8)),
      ir::StoreNode::Make(c->data, indirect * broadcast, Ramp(i + 64, 4, 8)),  // scatter
  });
  ir::PrimFunc f{"gathers", {a, idx, c}, ir::ForNode::Make(i, 0, 4, ir::ForKind::kSerial, body)};
  runtime::NDArray av = MakeArray(kF32, {96}), iv = MakeArray(kI32, {32}),
                   cv = MakeArray(kF32, {96});
  Fill(av, 21);
  Fill(iv, 22, 0, 95);
  ExpectMatchesInterpreter(f, {&av, &iv, &cv});
}

TEST(CodegenMemoryTest, BoolBuffersHoldOneBytePerElement) {
  ir::Buffer a("A", kF32, {32}), m("M", DataType::Bool(), {32}), c("C", kF32, {32});
  ir::Var i("i", kI32);
  Expr lanes = Ramp(i * 8, 1, 8);
  ir::Stmt body = ir::SeqStmtNode::Make({
      ir::StoreNode::Make(m->data, At(a, lanes) > ir::BroadcastNode::Make(0.0f, 8), lanes),
      ir::StoreNode::Make(c->data,
                          ir::Select(At(m, lanes), At(a, lanes), ir::BroadcastNode::Make(-1.0f, 8)),
                          lanes),
  });
  ir::Var j("j", kI32);
  ir::Stmt scalar =
      ir::ForNode::Make(j, 0, 32, ir::ForKind::kSerial, ir::StoreNode::Make(m->data, !At(m, j), j));
  ir::PrimFunc f{
      "bools",
      {a, m, c},
      ir::SeqStmtNode::Make({ir::ForNode::Make(i, 0, 4, ir::ForKind::kSerial, body), scalar})};
  runtime::NDArray av = MakeArray(kF32, {32}), mv = MakeArray(DataType::Bool(), {32});
  runtime::NDArray cv = MakeArray(kF32, {32});
  Fill(av, 23);
  ExpectMatchesInterpreter(f, {&av, &mv, &cv});
}

// T is written before it is read (fresh storage holds garbage); small constant sizes live on the
// stack, large or symbolic ones on the heap.
ir::PrimFunc StagedCopy(const std::string& name, ir::Expr extent, const ir::Buffer& a,
                        const ir::Buffer& c, DataType alloc_type = kF32) {
  ir::Var t("T", DataType::Handle()), i("i", kI32), j("j", kI32);
  ir::Stmt fill = ir::ForNode::Make(i, 0, extent, ir::ForKind::kSerial,
                                    ir::StoreNode::Make(t, At(a, i) * 2.0f, i));
  ir::Stmt use = ir::ForNode::Make(
      j, 0, extent, ir::ForKind::kSerial,
      ir::StoreNode::Make(c->data, ir::LoadNode::Make(kF32, t, extent - 1 - j) + 1.0f, j));
  return ir::PrimFunc{name,
                      {a, c},
                      ir::AllocateNode::Make(t, alloc_type, {extent}, "global",
                                             ir::SeqStmtNode::Make({fill, use}))};
}

TEST(CodegenMemoryTest, AllocationsOnTheStackAndTheHeap) {
  ir::Var n("n");
  ir::Buffer a("A", kF32, {n}), c("C", kF32, {n});
  ir::Buffer a_big("A", kF32, {40000}), c_big("C", kF32, {40000});
  struct Case {
    ir::PrimFunc f;
    int64_t size;
    const char* storage;
  };
  const Case cases[] = {
      {StagedCopy("stack", 64, a, c), 64, "alloca [64 x float]"},
      {StagedCopy("heap_const", 40000, a_big, c_big), 40000, "@aligned_alloc"},
      {StagedCopy("heap_symbolic", n, a, c), 100, "@aligned_alloc"},
  };
  for (const Case& k : cases) {
    SCOPED_TRACE(k.f.name);
    runtime::NDArray av = MakeArray(kF32, {k.size}), cv = MakeArray(kF32, {k.size});
    Fill(av, 24);
    ExpectMatchesInterpreter(k.f, {&av, &cv});
    absl::StatusOr<std::string> ir_text = LlvmIrText({k.f}, Host(), false);
    ASSERT_TRUE(ir_text.ok()) << ir_text.status();
    EXPECT_THAT(*ir_text, HasSubstr(k.storage));
  }
}

TEST(CodegenMemoryTest, HeapAllocationsComeFromTheRuntimesWorkspacePool) {
  // The JIT sets the module's workspace pointers: the second call reuses the first's buffer
  // instead of asking the OS for its pages again.
  ir::Buffer a("A", kF32, {40000}), c("C", kF32, {40000});
  const ir::PrimFunc f = StagedCopy("pooled", 40000, a, c);
  runtime::NDArray av = MakeArray(kF32, {40000}), cv = MakeArray(kF32, {40000});
  Fill(av, 25);
  const runtime::WorkspacePoolStats before = runtime::ThisThreadWorkspaceStats();
  ASSERT_TRUE(RunJit(f, {&av, &cv}).ok());
  ASSERT_TRUE(RunJit(f, {&av, &cv}).ok());
  const runtime::WorkspacePoolStats after = runtime::ThisThreadWorkspaceStats();
  EXPECT_EQ(after.allocations - before.allocations, 2);
  EXPECT_GE(after.reused - before.reused, 1);
  EXPECT_GE(after.pooled_buffers, 1) << "kept for the next call";
  EXPECT_FLOAT_EQ(static_cast<const float*>(cv.data())[0],
                  static_cast<const float*>(av.data())[39999] * 2 + 1);
  absl::StatusOr<std::string> ir_text = LlvmIrText({f}, Host(), false);
  ASSERT_TRUE(ir_text.ok()) << ir_text.status();
  EXPECT_THAT(*ir_text, HasSubstr("@__tf_workspace_alloc"));
  EXPECT_THAT(*ir_text, HasSubstr("@__tf_workspace_free"));
}

// A float32x4 allocation holds 4 * extent scalars, indexed by scalar.
TEST(CodegenMemoryTest, VectorTypedAllocationsCountScalars) {
  ir::Buffer a("A", kF32, {32}), c("C", kF32, {32});
  ir::PrimFunc f = StagedCopy("vector_alloc", 32, a, c, DataType::Float(32, 4));
  runtime::NDArray av = MakeArray(kF32, {32}), cv = MakeArray(kF32, {32});
  Fill(av, 25);
  ExpectMatchesInterpreter(f, {&av, &cv});
  absl::StatusOr<std::string> ir_text = LlvmIrText({f}, Host(), false);
  ASSERT_TRUE(ir_text.ok());
  EXPECT_THAT(*ir_text, HasSubstr("alloca [128 x float]"));
}

TEST(CodegenMemoryTest, ParametersAreNoaliasWithDisjointScopesAndProvenAlignment) {
  ir::Buffer a("A", kF32, {256}), b("B", kF32, {256}), c("C", kF32, {256});
  ir::Var i("i", kI32);
  Expr lanes = Ramp(i * 8, 1, 8);
  Expr odd = Ramp(i * 8 + 1, 1, 8);
  ir::Stmt body = ir::StoreNode::Make(c->data, At(a, lanes) + At(b, odd), lanes);
  ir::PrimFunc f{"aligned", {a, b, c}, ir::ForNode::Make(i, 0, 31, ir::ForKind::kSerial, body)};
  absl::StatusOr<std::string> ir_text = LlvmIrText({f}, Host(), false);
  ASSERT_TRUE(ir_text.ok()) << ir_text.status();
  EXPECT_THAT(*ir_text, HasSubstr("ptr noalias align 64 %A"));
  EXPECT_THAT(*ir_text, HasSubstr("ptr noalias align 64 %C"));
  // A[8i .. 8i+7] starts on a 32-byte boundary; B[8i+1 ..] only on 4 bytes.
  EXPECT_THAT(*ir_text, HasSubstr("load <8 x float>, ptr %"));
  EXPECT_THAT(*ir_text, HasSubstr(", align 32, !alias.scope"));
  EXPECT_THAT(*ir_text, HasSubstr(", align 4, !alias.scope"));
  EXPECT_THAT(*ir_text, HasSubstr("!noalias"));
  runtime::NDArray av = MakeArray(kF32, {256}), bv = MakeArray(kF32, {256}),
                   cv = MakeArray(kF32, {256});
  Fill(av, 26);
  Fill(bv, 27);
  ExpectMatchesInterpreter(f, {&av, &bv, &cv});
}

TEST(CodegenMemoryTest, AccessToAnUnknownBufferIsAnError) {
  ir::Buffer c("C", kF32, {4});
  ir::Var t("T", DataType::Handle());
  // T is allocated in the first statement only; the second stores to it out of scope.
  ir::Stmt s = ir::SeqStmtNode::Make({
      ir::AllocateNode::Make(t, kF32, {4}, "global", ir::StoreNode::Make(t, 1.0f, 0)),
      ir::StoreNode::Make(t, 2.0f, 0),
  });
  absl::StatusOr<std::shared_ptr<runtime::Module>> m = BuildJit({{"ghost", {c}, s}}, Host());
  ASSERT_FALSE(m.ok());
  EXPECT_THAT(m.status().message(), HasSubstr("store of T"));
}

}  // namespace
}  // namespace tunefarm::codegen
