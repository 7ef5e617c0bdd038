// EarlierSameComputation and the library it shapes: a kernel written twice (fresh variables and
// buffers, another name) shares the first one's body, each entry still computing its own
// arguments; a different constant, swapped parameters, another shape or a shape variable do not.
#include "compiler/codegen/llvm/same_computation.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "runtime/module.h"
#include "tests/unit/compiler/codegen/llvm/codegen_test_util.h"

namespace tunefarm::codegen {
namespace {

using namespace testing;  // NOLINT
using ::testing::ElementsAre;

// out[i] = a[i] * k + b[i] over n elements, every variable and buffer made anew.
ir::PrimFunc Axpy(const std::string& name, float k, int64_t n = 16, bool swap = false) {
  ir::Buffer a("a", kF32, {ir::Expr(static_cast<int>(n))});
  ir::Buffer b("b", kF32, {ir::Expr(static_cast<int>(n))});
  ir::Buffer out("out", kF32, {ir::Expr(static_cast<int>(n))});
  std::vector<ir::Buffer> params = swap ? std::vector<ir::Buffer>{b, a} : std::vector{a, b};
  return OneLoop(name, params, out, n, [&](ir::Var i) { return At(a, i) * k + At(b, i); });
}

std::vector<int> Same(const std::vector<ir::PrimFunc>& funcs) {
  std::vector<KernelArgs> args;
  for (const ir::PrimFunc& f : funcs) {
    absl::StatusOr<KernelArgs> a = AnalyzeKernelArgs(f);
    EXPECT_TRUE(a.ok()) << a.status();
    args.push_back(a.ok() ? *a : KernelArgs());
  }
  return EarlierSameComputation(funcs, args);
}

TEST(SameComputationTest, AKernelWrittenAgainSharesTheFirstBody) {
  EXPECT_THAT(Same({Axpy("k0", 2), Axpy("k1", 3), Axpy("k2", 2), Axpy("k3", 3)}),
              ElementsAre(-1, -1, 0, 1));
}

TEST(SameComputationTest, ParametersInAnotherOrderAnotherShapeOrAShapeVariableAreNotShared) {
  EXPECT_THAT(Same({Axpy("k0", 2), Axpy("k1", 2, 16, /*swap=*/true)}), ElementsAre(-1, -1));
  EXPECT_THAT(Same({Axpy("k0", 2), Axpy("k1", 2, 32)}), ElementsAre(-1, -1));
  ir::Var n("n");
  ir::Buffer a("a", kF32, {n}), out("out", kF32, {n});
  auto symbolic = [&](const std::string& name) {
    ir::Var i("i", kI32);
    return ir::PrimFunc{name,
                        {a, out},
                        ir::ForNode::Make(i, 0, n, ir::ForKind::kSerial,
                                          ir::StoreNode::Make(out->data, At(a, i), i))};
  };
  EXPECT_THAT(Same({symbolic("s0"), symbolic("s1")}), ElementsAre(-1, -1));
}

TEST(SameComputationTest, EachEntryOfALibraryWithASharedBodyComputesItsOwnArguments) {
  const std::vector<ir::PrimFunc> funcs = {Axpy("first", 2), Axpy("again", 2), Axpy("other", 5)};
  const std::string path = ::testing::TempDir() + "/same_computation.so";
  ASSERT_TRUE(ExportLibrary(funcs, Host(), path).ok());
  absl::StatusOr<std::shared_ptr<runtime::Module>> m = runtime::LoadModule(path);
  ASSERT_TRUE(m.ok()) << m.status();
  for (int f = 0; f < 3; ++f) {
    absl::StatusOr<runtime::PackedFunction> fn = (*m)->GetFunction(funcs[f].name);
    ASSERT_TRUE(fn.ok()) << fn.status();
    runtime::NDArray a = MakeArray(kF32, {16}), b = MakeArray(kF32, {16});
    runtime::NDArray got = MakeArray(kF32, {16}), want = MakeArray(kF32, {16});
    Fill(a, 10 + f);
    Fill(b, 20 + f);
    ASSERT_TRUE(fn->Call({&a, &b, &got}).ok());
    ASSERT_TRUE(interp::Run(funcs[f], {&a, &b, &want}).ok());
    EXPECT_EQ(Mismatch(got, want, 1e-6, 1e-6), "") << funcs[f].name;
  }
  std::remove(path.c_str());
}

}  // namespace
}  // namespace tunefarm::codegen
