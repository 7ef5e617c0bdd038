// Generated kernel arguments: deterministic per seed, in range per element type, shapes bound by
// name, and errors for what cannot be generated; plus the mismatch report of FindMismatch.
#include "runtime/measure/kernel_arguments.h"

#include <cmath>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "runtime/measure/element_access.h"
#include "runtime/measure/output_check.h"

namespace tunefarm::runtime::measure {
namespace {

using ::testing::HasSubstr;

FunctionSignature Signature() {
  FunctionSignature s;
  s.name = "f";
  s.args.push_back(
      {ArgKind::kTensor, "A", {kDLFloat, 32, 1}, {DimSpec::Symbol("n"), DimSpec::Const(3)}});
  s.args.push_back({ArgKind::kTensor, "B", {kDLInt, 8, 1}, {DimSpec::Const(50)}});
  s.args.push_back({ArgKind::kInt, "m", {kDLInt, 64, 1}, {}});
  s.args.push_back({ArgKind::kTensor, "C", {kDLFloat, 64, 1}, {DimSpec::Symbol("n")}});
  return s;
}

TEST(KernelArgumentsTest, DeterministicAndInRange) {
  absl::StatusOr<KernelArguments> a = KernelArguments::Make(Signature(), {{"n", 4}, {"m", 9}}, 7);
  absl::StatusOr<KernelArguments> b = KernelArguments::Make(Signature(), {{"n", 4}, {"m", 9}}, 7);
  absl::StatusOr<KernelArguments> c = KernelArguments::Make(Signature(), {{"n", 4}, {"m", 9}}, 8);
  ASSERT_TRUE(a.ok()) << a.status();
  ASSERT_TRUE(b.ok() && c.ok());
  ASSERT_EQ(a->tensors().size(), 3u);
  EXPECT_EQ(a->tensor_positions(), (std::vector<int>{0, 1, 3}));
  EXPECT_EQ(a->tensors()[0].shape(), (std::vector<int64_t>{4, 3}));
  EXPECT_EQ(FindMismatch(*a, *b, 0, 0), "");
  EXPECT_NE(FindMismatch(*a, *c, 0, 0), "");
  for (int64_t i = 0; i < 12; ++i) {
    double v = LoadElement(a->tensors()[0], i);
    EXPECT_GE(v, -1.0);
    EXPECT_LE(v, 1.0);
  }
  for (int64_t i = 0; i < 50; ++i) {
    double v = LoadElement(a->tensors()[1], i);
    EXPECT_GE(v, -4.0);
    EXPECT_LE(v, 4.0);
    EXPECT_EQ(v, std::floor(v));
  }
  std::vector<PackedArg> packed = a->Pack();
  ASSERT_EQ(packed.size(), 4u);
  EXPECT_EQ(std::get<int64_t>(packed[2].value()), 9);
  EXPECT_EQ(std::get<DLTensor*>(packed[3].value())->shape[0], 4);
}

TEST(KernelArgumentsTest, CloneAndRestore) {
  absl::StatusOr<KernelArguments> a = KernelArguments::Make(Signature(), {{"n", 2}, {"m", 1}}, 3);
  ASSERT_TRUE(a.ok());
  absl::StatusOr<KernelArguments> copy = a->Clone();
  ASSERT_TRUE(copy.ok());
  EXPECT_FALSE(copy->tensors()[0].SharesMemoryWith(a->tensors()[0]));
  NDArray& c0 = const_cast<NDArray&>(copy->tensors()[2]);
  StoreElement(c0, 1, 123.0);
  EXPECT_THAT(FindMismatch(*copy, *a, 1e-3, 1e-4), HasSubstr("C[1] = 123, expected"));
  ASSERT_TRUE(copy->RestoreFrom(*a).ok());
  EXPECT_EQ(FindMismatch(*copy, *a, 0, 0), "");
}

TEST(KernelArgumentsTest, ErrorsNameTheArgument) {
  EXPECT_THAT(KernelArguments::Make(Signature(), {{"m", 1}}, 1).status().message(),
              HasSubstr("no value for 'n'"));
  EXPECT_THAT(KernelArguments::Make(Signature(), {{"n", 1}}, 1).status().message(),
              HasSubstr("argument 2 (m)"));
  FunctionSignature half;
  half.name = "h";
  half.args.push_back({ArgKind::kTensor, "X", {kDLFloat, 16, 1}, {DimSpec::Const(2)}});
  EXPECT_THAT(KernelArguments::Make(half, {}, 1).status().message(), HasSubstr("float16"));
}

TEST(OutputCheckTest, ToleranceNanAndInfinity) {
  FunctionSignature s;
  s.name = "g";
  s.args.push_back(
      {ArgKind::kTensor, "Y", {kDLFloat, 32, 1}, {DimSpec::Const(2), DimSpec::Const(2)}});
  absl::StatusOr<KernelArguments> got = KernelArguments::Make(s, {}, 1);
  absl::StatusOr<KernelArguments> want = KernelArguments::Make(s, {}, 1);
  ASSERT_TRUE(got.ok() && want.ok());
  NDArray& g = const_cast<NDArray&>(got->tensors()[0]);
  NDArray& w = const_cast<NDArray&>(want->tensors()[0]);
  StoreElement(w, 0, 1.0);
  StoreElement(g, 0, 1.0005);  // within 1e-4 + 1e-3 * 1
  StoreElement(w, 1, NAN);
  StoreElement(g, 1, NAN);
  StoreElement(w, 2, INFINITY);
  StoreElement(g, 2, INFINITY);
  EXPECT_EQ(FindMismatch(*got, *want, 1e-3, 1e-4), "");
  StoreElement(g, 3, NAN);
  EXPECT_THAT(FindMismatch(*got, *want, 1e-3, 1e-4), HasSubstr("Y[1, 1] = nan"));
  EXPECT_EQ(FormatIndex(7, {2, 2, 3}), "[1, 0, 1]");
}

}  // namespace
}  // namespace tunefarm::runtime::measure
