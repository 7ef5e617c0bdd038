#include "driver/array_check.h"

#include <cmath>
#include <cstring>
#include <gtest/gtest.h>

#include "runtime/data_type.h"

namespace tunefarm::driver {
namespace {

runtime::NDArray Make(std::vector<int64_t> shape, const char* dtype) {
  absl::StatusOr<runtime::NDArray> a =
      runtime::NDArray::Empty(std::move(shape), *runtime::ParseDataType(dtype));
  EXPECT_TRUE(a.ok()) << a.status();
  return *std::move(a);
}

TEST(ArrayCheckTest, RandomFloatsAreInRangeAndReproducible) {
  runtime::NDArray a = Make({100}, "float32");
  runtime::NDArray b = Make({100}, "float32");
  ASSERT_TRUE(FillRandom(a, 7).ok());
  ASSERT_TRUE(FillRandom(b, 7).ok());
  const auto* x = static_cast<const float*>(a.data());
  bool all_zero = true;
  for (int i = 0; i < 100; ++i) {
    EXPECT_GE(x[i], -1.0f);
    EXPECT_LE(x[i], 1.0f);
    all_zero = all_zero && x[i] == 0.0f;
  }
  EXPECT_FALSE(all_zero);
  EXPECT_EQ(std::memcmp(a.data(), b.data(), a.NumBytes()), 0);
  ASSERT_TRUE(FillRandom(b, 8).ok());
  EXPECT_NE(std::memcmp(a.data(), b.data(), a.NumBytes()), 0);
}

TEST(ArrayCheckTest, RandomIntegersAreSmall) {
  runtime::NDArray a = Make({64}, "int32");
  ASSERT_TRUE(FillRandom(a, 1).ok());
  for (int i = 0; i < 64; ++i) {
    int32_t v = static_cast<const int32_t*>(a.data())[i];
    EXPECT_GE(v, -4);
    EXPECT_LE(v, 4);
  }
}

TEST(ArrayCheckTest, CompareFindsTheFirstMismatchWithinTolerance) {
  runtime::NDArray a = Make({2, 3}, "float32");
  runtime::NDArray b = Make({2, 3}, "float32");
  auto* x = static_cast<float*>(a.data());
  auto* y = static_cast<float*>(b.data());
  for (int i = 0; i < 6; ++i) x[i] = y[i] = static_cast<float>(i);
  x[1] += 1e-6f;  // within atol
  absl::StatusOr<Comparison> same = CompareArrays(a, b, 1e-4, 1e-5);
  ASSERT_TRUE(same.ok());
  EXPECT_EQ(same->first_mismatch, -1);
  x[4] += 0.5f;
  absl::StatusOr<Comparison> differ = CompareArrays(a, b, 1e-4, 1e-5);
  ASSERT_TRUE(differ.ok());
  EXPECT_EQ(differ->first_mismatch, 4);
  EXPECT_DOUBLE_EQ(differ->max_abs_err, 0.5);
  EXPECT_EQ(FormatIndex(differ->first_mismatch, a.shape()), "[1, 1]");
}

TEST(ArrayCheckTest, PoisonNeverMatches) {
  runtime::NDArray a = Make({4}, "float32");
  runtime::NDArray b = Make({4}, "float32");
  FillPoison(a);
  EXPECT_TRUE(std::isnan(static_cast<const float*>(a.data())[0]));
  absl::StatusOr<Comparison> c = CompareArrays(a, b, 1e-4, 1e-5);
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->first_mismatch, 0);
}

TEST(ArrayCheckTest, InfinitiesAndNansAgreeWithThemselves) {
  runtime::NDArray a = Make({3}, "float32");
  runtime::NDArray b = Make({3}, "float32");
  auto* x = static_cast<float*>(a.data());
  auto* y = static_cast<float*>(b.data());
  x[0] = y[0] = -INFINITY;
  x[1] = y[1] = NAN;
  x[2] = y[2] = 1.0f;
  absl::StatusOr<Comparison> c = CompareArrays(a, b, 1e-4, 1e-5);
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->first_mismatch, -1);
  EXPECT_EQ(c->max_abs_err, 0.0);
  x[0] = 1.0f;
  EXPECT_EQ(CompareArrays(a, b, 1e-4, 1e-5)->first_mismatch, 0);
}

TEST(ArrayCheckTest, MismatchedArraysAreAnError) {
  runtime::NDArray a = Make({4}, "float32");
  runtime::NDArray b = Make({5}, "float32");
  EXPECT_FALSE(CompareArrays(a, b, 0, 0).ok());
}

}  // namespace
}  // namespace tunefarm::driver
