#include "runtime/module.h"

#include <dlfcn.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "runtime/core/thread_pool.h"
#include "tests/testing/dl_types.h"

namespace tunefarm::runtime {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

using fixtures::kF32;

bool IsMapped(const std::string& path) {
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_NOLOAD);
  if (handle == nullptr) return false;
  dlclose(handle);
  return true;
}

TEST(ModuleTest, RunsAKernelFromALoadedLibraryOnThePool) {
  absl::StatusOr<std::shared_ptr<Module>> module = LoadModule(TF_TEST_KERNELS_GOOD_PATH);
  ASSERT_TRUE(module.ok()) << module.status();
  EXPECT_THAT((*module)->FunctionNames(), ElementsAre("tf_test_add_one", "tf_test_fail"));
  absl::StatusOr<PackedFunction> add_one = (*module)->GetFunction("tf_test_add_one");
  ASSERT_TRUE(add_one.ok()) << add_one.status();
  for (int threads : {1, 2}) {
    ASSERT_TRUE(SetNumThreads(threads));
    auto a = NDArray::Empty({1001}, kF32);
    auto b = NDArray::Empty({1001}, kF32);
    ASSERT_TRUE(a.ok() && b.ok());
    auto* x = static_cast<float*>(a->data());
    for (int i = 0; i < 1001; ++i) x[i] = static_cast<float>(i);
    ASSERT_TRUE(add_one->Call({&*a, &*b, int64_t{1001}}).ok());
    const auto* y = static_cast<const float*>(b->data());
    for (int i = 0; i < 1001; ++i) ASSERT_EQ(y[i], i + 1.0f) << i;
  }
  ASSERT_TRUE(SetNumThreads(0));
}

TEST(ModuleTest, WrongArgumentsAndKernelFailuresAreErrors) {
  absl::StatusOr<std::shared_ptr<Module>> module = LoadModule(TF_TEST_KERNELS_GOOD_PATH);
  ASSERT_TRUE(module.ok()) << module.status();
  absl::StatusOr<PackedFunction> add_one = (*module)->GetFunction("tf_test_add_one");
  absl::StatusOr<PackedFunction> fail = (*module)->GetFunction("tf_test_fail");
  ASSERT_TRUE(add_one.ok() && fail.ok());
  auto a = NDArray::Empty({8}, kF32);
  auto b = NDArray::Empty({8}, kF32);
  absl::Status st = add_one->Call({&*a, &*b, int64_t{9}});
  EXPECT_EQ(st.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(st.message(), HasSubstr("kernel 'tf_test_add_one': argument 2 (n): value 9"));
  st = fail->Call({5});
  EXPECT_EQ(st.code(), absl::StatusCode::kInternal);
  EXPECT_THAT(st.message(), HasSubstr("kernel 'tf_test_fail' failed (returned 5)"));
  EXPECT_TRUE(fail->Call({0}).ok());
}

TEST(ModuleTest, UnknownKernelListsTheKnownOnes) {
  absl::StatusOr<std::shared_ptr<Module>> module = LoadModule(TF_TEST_KERNELS_GOOD_PATH);
  ASSERT_TRUE(module.ok()) << module.status();
  absl::StatusOr<PackedFunction> f = (*module)->GetFunction("matmul");
  EXPECT_EQ(f.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(f.status().message(),
              HasSubstr("has no kernel 'matmul'; it has: tf_test_add_one, tf_test_fail"));
}

TEST(ModuleTest, TheLibraryStaysLoadedWhileAnyFunctionLives) {
  const std::string path = TF_TEST_KERNELS_GOOD_PATH;
  absl::StatusOr<std::shared_ptr<Module>> module = LoadModule(path);
  ASSERT_TRUE(module.ok()) << module.status();
  absl::StatusOr<PackedFunction> fail = (*module)->GetFunction("tf_test_fail");
  ASSERT_TRUE(fail.ok());
  module->reset();
  EXPECT_TRUE(IsMapped(path));
  EXPECT_EQ(fail->Call({3}).code(), absl::StatusCode::kInternal);
  PackedFunction copy = *fail;
  fail = absl::CancelledError("drop it");
  EXPECT_TRUE(IsMapped(path));
  EXPECT_TRUE(copy.Call({0}).ok());
  copy = PackedFunction({}, nullptr, nullptr);
  EXPECT_FALSE(IsMapped(path));
}

TEST(ModuleTest, LoadErrorsNameThePath) {
  absl::StatusOr<std::shared_ptr<Module>> missing = LoadModule("/no/such/kernels.so");
  EXPECT_EQ(missing.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(missing.status().message(), HasSubstr("'/no/such/kernels.so'"));
  absl::StatusOr<std::shared_ptr<Module>> broken = LoadModule(TF_TEST_KERNELS_NO_LAUNCH_PATH);
  EXPECT_EQ(broken.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(broken.status().message(), HasSubstr("is not a tunefarm library"));
}

}  // namespace
}  // namespace tunefarm::runtime
