// BuildJit as the tuner uses it: kernels outlive their module handle, modules with equal kernel
// names coexist, builds from several threads at once, many builds in a row (each module's code
// is removed from the JIT when released), and targets this machine cannot run.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <thread>

#include "tests/unit/compiler/codegen/llvm/codegen_test_util.h"

namespace tunefarm::codegen {
namespace {

using namespace testing;  // NOLINT
using ::testing::HasSubstr;

ir::PrimFunc Scale(float factor) {
  ir::Buffer a("A", kF32, {16}), c("C", kF32, {16});
  return OneLoop("scale", {a}, c, 16, [&](ir::Var i) { return At(a, i) * factor; });
}

absl::StatusOr<runtime::PackedFunction> BuildScale(float factor) {
  absl::StatusOr<std::shared_ptr<runtime::Module>> m = BuildJit({Scale(factor)}, Host());
  if (!m.ok()) return m.status();
  return (*m)->GetFunction("scale");
}

float RunScale(const runtime::PackedFunction& fn) {
  runtime::NDArray a = MakeArray(kF32, {16}), c = MakeArray(kF32, {16});
  SetElement(a, 3, 1.0);
  EXPECT_TRUE(fn.Call({&a, &c}).ok());
  return static_cast<float>(ElementAt(c, 3));
}

TEST(BuildJitTest, AKernelKeepsItsCodeAliveAfterTheModuleIsGone) {
  absl::StatusOr<runtime::PackedFunction> fn = BuildScale(4.0f);
  ASSERT_TRUE(fn.ok()) << fn.status();
  EXPECT_EQ(RunScale(*fn), 4.0f);
}

TEST(BuildJitTest, ModulesWithEqualKernelNamesCoexist) {
  absl::StatusOr<runtime::PackedFunction> two = BuildScale(2.0f);
  absl::StatusOr<runtime::PackedFunction> three = BuildScale(3.0f);
  ASSERT_TRUE(two.ok() && three.ok());
  EXPECT_EQ(RunScale(*two), 2.0f);
  EXPECT_EQ(RunScale(*three), 3.0f);
}

TEST(BuildJitTest, ManyBuildsInARowAndFromSeveralThreads) {
  for (int k = 0; k < 20; ++k) {
    absl::StatusOr<runtime::PackedFunction> fn = BuildScale(static_cast<float>(k));
    ASSERT_TRUE(fn.ok()) << fn.status();
    EXPECT_EQ(RunScale(*fn), static_cast<float>(k));
  }
  std::vector<float> results(4, -1.0f);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&results, t] {
      absl::StatusOr<runtime::PackedFunction> fn = BuildScale(static_cast<float>(10 + t));
      if (fn.ok()) results[t] = RunScale(*fn);
    });
  }
  for (std::thread& t : threads) t.join();
  for (int t = 0; t < 4; ++t) EXPECT_EQ(results[t], static_cast<float>(10 + t));
}

TEST(BuildJitTest, ATargetThisMachineCannotRunIsAnError) {
  absl::StatusOr<LlvmTarget> other = ParseLlvmTarget(
      Host().is_aarch64() ? "llvm -mtriple=x86_64-linux-gnu" : "llvm -mtriple=aarch64-linux-gnu");
  ASSERT_TRUE(other.ok());
  absl::StatusOr<std::shared_ptr<runtime::Module>> m = BuildJit({Scale(1.0f)}, *other);
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(m.status().message(), HasSubstr("ExportLibrary"));
}

TEST(BuildJitTest, BadFunctionListsAreErrors) {
  EXPECT_FALSE(BuildJit({}, Host()).ok());
  absl::StatusOr<std::shared_ptr<runtime::Module>> twice = BuildJit({Scale(1), Scale(2)}, Host());
  ASSERT_FALSE(twice.ok());
  EXPECT_THAT(twice.status().message(), HasSubstr("two functions are named scale"));
}

}  // namespace
}  // namespace tunefarm::codegen
