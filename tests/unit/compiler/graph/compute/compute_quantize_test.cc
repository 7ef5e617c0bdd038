// quantize and dequantize against scalar code written from ONNX's definitions: per tensor and per
// axis, uint8 and int8, ties rounded to even, saturation at both ends, and int32 dequantized
// exactly; bad parameters are refused naming them.
#include <cmath>
#include <cstring>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "compiler/graph/graph.h"
#include "runtime/data_type.h"
#include "tests/unit/compiler/graph/compute/compute_test_util.h"

namespace tunefarm::graph::testing {
namespace {

template <typename T>
runtime::NDArray Array(const Shape& shape, DLDataType dtype, const std::vector<T>& values) {
  runtime::NDArray a = *runtime::NDArray::Empty(shape, dtype);
  std::memcpy(a.data(), values.data(), values.size() * sizeof(T));
  return a;
}

constexpr DLDataType kF32{kDLFloat, 32, 1}, kU8{kDLUInt, 8, 1}, kI8{kDLInt, 8, 1},
    kI32{kDLInt, 32, 1};

// ONNX's QuantizeLinear of one value: round half to even, then saturate.
int Quantize(float x, float scale, int zero, bool is_unsigned) {
  const double q = std::nearbyint(static_cast<double>(x / scale)) + zero;
  return static_cast<int>(std::clamp(q, is_unsigned ? 0.0 : -128.0, is_unsigned ? 255.0 : 127.0));
}

TEST(ComputeQuantizeTest, PerTensorUint8RoundsHalfToEvenAndSaturates) {
  // x / 0.5: 2.5 -> 2 (even), 3.5 -> 4, -0.5 -> 0 (then + 10), 200 and -200 saturate.
  runtime::NDArray x = Array<float>({2, 3}, kF32, {1.25f, 1.75f, -0.25f, 100.0f, -100.0f, 0.3f});
  runtime::NDArray scale = Array<float>({}, kF32, {0.5f});
  runtime::NDArray zero = Array<uint8_t>({}, kU8, {10});
  std::vector<runtime::NDArray> q = Eval(OpKind::kQuantize, {}, {&x, &scale, &zero});
  ASSERT_EQ(q.size(), 1u);
  ASSERT_TRUE(runtime::SameDataType(q[0].dtype(), kU8));
  const auto* got = static_cast<const uint8_t*>(q[0].data());
  const std::vector<int> want = {12, 14, 10, 210, 0, 11};
  for (size_t i = 0; i < want.size(); ++i) EXPECT_EQ(got[i], want[i]) << i;
  for (size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(got[i], Quantize(F(x)[i], 0.5f, 10, true)) << i;
  }
}

TEST(ComputeQuantizeTest, PerAxisInt8RoundTripsThroughDequantize) {
  runtime::NDArray x = Random({2, 3, 4}, 5, -3.0f, 3.0f);
  runtime::NDArray scale = Array<float>({3}, kF32, {0.01f, 0.02f, 0.05f});
  runtime::NDArray zero = Array<int8_t>({3}, kI8, {0, -3, 7});
  std::vector<runtime::NDArray> q =
      Eval(OpKind::kQuantize, {{"axis", int64_t{1}}}, {&x, &scale, &zero});
  ASSERT_EQ(q.size(), 1u);
  std::vector<runtime::NDArray> d =
      Eval(OpKind::kDequantize, {{"axis", int64_t{-2}}}, {&q[0], &scale, &zero});
  ASSERT_EQ(d.size(), 1u);
  const auto* qv = static_cast<const int8_t*>(q[0].data());
  for (int64_t i = 0; i < 24; ++i) {
    const int64_t c = Unflatten(i, {2, 3, 4})[1];
    const float s = F(scale)[c];
    const int z = static_cast<const int8_t*>(zero.data())[c];
    const int want = Quantize(F(x)[i], s, z, false);
    ASSERT_EQ(qv[i], want) << "element " << i;
    EXPECT_EQ(F(d[0])[i], static_cast<float>(want - z) * s) << "element " << i;
  }
}

TEST(ComputeQuantizeTest, Int32IsDequantizedWithoutFloatRounding) {
  // 16777217 is not a float; (x - zero) in int32 first keeps the difference exact.
  runtime::NDArray x = Array<int32_t>({3}, kI32, {16777217, -5, 0});
  runtime::NDArray scale = Array<float>({1}, kF32, {0.25f});
  runtime::NDArray zero = Array<int32_t>({1}, kI32, {16777216});
  std::vector<runtime::NDArray> d = Eval(OpKind::kDequantize, {}, {&x, &scale, &zero});
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(F(d[0])[0], 0.25f);
  EXPECT_EQ(F(d[0])[1], static_cast<float>(-5 - 16777216) * 0.25f);
}

TEST(ComputeQuantizeTest, ParametersThatDoNotFitTheAxisAreRefused) {
  Graph g;
  ValueId x = g.AddInput("x", {kF32, {2, 3}});
  ValueId scale = g.AddInput("scale", {kF32, {2}});
  ValueId zero = g.AddInput("zero", {kU8, {2}});
  absl::StatusOr<std::vector<ValueId>> q =
      g.AddOp(OpKind::kQuantize, "q", {{"axis", int64_t{1}}}, {x, scale, zero});
  ASSERT_FALSE(q.ok());
  EXPECT_THAT(q.status().message(), ::testing::HasSubstr("one per index of axis 1"));
  ValueId float_zero = g.AddInput("fz", {kF32, {}});
  ValueId one = g.AddInput("one", {kF32, {}});
  absl::StatusOr<std::vector<ValueId>> bad =
      g.AddOp(OpKind::kQuantize, "q2", {}, {x, one, float_zero});
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(bad.status().message(), ::testing::HasSubstr("must be int8 or uint8"));
}

}  // namespace
}  // namespace tunefarm::graph::testing
