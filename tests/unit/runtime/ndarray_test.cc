#include "runtime/ndarray.h"

#include <cstdint>
#include <cstring>
#include <gtest/gtest.h>
#include <utility>

#include "runtime/data_type.h"

namespace tunefarm::runtime {
namespace {

constexpr DLDataType kF32 = {kDLFloat, 32, 1};

TEST(NDArrayTest, EmptyDescribesAlignedZeroedHostMemory) {
  auto a = NDArray::Empty({2, 3, 4}, kF32);
  ASSERT_TRUE(a.ok()) << a.status();
  EXPECT_EQ(a->NumElements(), 24);
  EXPECT_EQ(a->NumBytes(), 96u);
  EXPECT_EQ(a->ndim(), 3);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(a->data()) % NDArray::kAlignment, 0u);
  const DLTensor* t = a->dl();
  EXPECT_EQ(t->data, a->data());
  EXPECT_EQ(t->device.device_type, kDLCPU);
  EXPECT_EQ(t->ndim, 3);
  EXPECT_EQ(t->shape[0], 2);
  EXPECT_EQ(t->shape[2], 4);
  EXPECT_EQ(t->strides, nullptr);
  EXPECT_TRUE(SameDataType(t->dtype, kF32));
  const auto* f = static_cast<const float*>(a->data());
  for (int i = 0; i < 24; ++i) EXPECT_EQ(f[i], 0.0f);
}

TEST(NDArrayTest, ScalarsAndZeroSizedArrays) {
  auto scalar = NDArray::Empty({}, kDLBool);
  ASSERT_TRUE(scalar.ok());
  EXPECT_EQ(scalar->NumElements(), 1);
  EXPECT_EQ(scalar->NumBytes(), 1u);
  auto empty = NDArray::Empty({4, 0}, kF32);
  ASSERT_TRUE(empty.ok());
  EXPECT_EQ(empty->NumElements(), 0);
  EXPECT_EQ(empty->NumBytes(), 0u);
  EXPECT_NE(empty->data(), nullptr);
}

TEST(NDArrayTest, RejectsNegativeDimsBadTypesAndOverflow) {
  auto neg = NDArray::Empty({2, -1}, kF32);
  ASSERT_FALSE(neg.ok());
  EXPECT_EQ(neg.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(neg.status().message().find("negative"), std::string::npos);
  EXPECT_FALSE(NDArray::Empty({2}, DLDataType{kDLInt, 7, 1}).ok());
  EXPECT_FALSE(NDArray::Empty({2}, DLDataType{kDLComplex, 64, 1}).ok());
  EXPECT_FALSE(NDArray::Empty({2}, DLDataType{kDLFloat, 32, 0}).ok());
  EXPECT_FALSE(NDArray::Empty({int64_t{1} << 40, int64_t{1} << 40}, kF32).ok());
}

TEST(NDArrayTest, MoveKeepsTheTensorAndLeavesTheSourceUndefined) {
  auto a = NDArray::Empty({8}, kF32);
  ASSERT_TRUE(a.ok());
  DLTensor* t = a->dl();
  NDArray b = std::move(*a);
  EXPECT_FALSE(a->defined());  // NOLINT(bugprone-use-after-move): the documented state
  EXPECT_TRUE(b.defined());
  EXPECT_EQ(b.dl(), t);
  NDArray c;
  c = std::move(b);
  EXPECT_EQ(c.dl(), t);
}

TEST(NDArrayTest, CopyFromChecksShapeAndDtype) {
  auto src = NDArray::Empty({2, 2}, kF32);
  auto dst = NDArray::Empty({2, 2}, kF32);
  ASSERT_TRUE(src.ok() && dst.ok());
  const float values[] = {1, 2, 3, 4};
  std::memcpy(src->data(), values, sizeof(values));
  ASSERT_TRUE(dst->CopyFrom(*src).ok());
  EXPECT_EQ(static_cast<const float*>(dst->data())[3], 4.0f);

  auto other_shape = NDArray::Empty({4}, kF32);
  auto other_type = NDArray::Empty({2, 2}, DLDataType{kDLInt, 32, 1});
  absl::Status s = dst->CopyFrom(*other_shape);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("float32[2, 2]"), std::string::npos) << s;
  EXPECT_FALSE(dst->CopyFrom(*other_type).ok());
  EXPECT_FALSE(dst->CopyFrom(NDArray()).ok());
}

}  // namespace
}  // namespace tunefarm::runtime
