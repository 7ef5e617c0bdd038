#include "runtime/ndarray.h"

#include <cstdint>
#include <cstring>
#include <gtest/gtest.h>
#include <utility>

#include "runtime/data_type.h"
#include "tests/testing/dl_types.h"

namespace tunefarm::runtime {
namespace {

using fixtures::kF32;

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

TEST(NDArrayTest, ViewsShareMemoryAndOutliveTheirSource) {
  auto a = NDArray::Empty({2, 6}, kF32);
  ASSERT_TRUE(a.ok());
  static_cast<float*>(a->data())[7] = 1.5f;
  absl::StatusOr<NDArray> reshaped = a->View({3, 4});
  ASSERT_TRUE(reshaped.ok()) << reshaped.status();
  EXPECT_EQ(reshaped->data(), a->data());
  EXPECT_TRUE(reshaped->SharesMemoryWith(*a));
  EXPECT_EQ(reshaped->shape(), (std::vector<int64_t>{3, 4}));
  EXPECT_EQ(reshaped->dl()->shape[1], 4);
  EXPECT_EQ(static_cast<const float*>(reshaped->data())[7], 1.5f);

  absl::StatusOr<NDArray> bits = a->View({12}, DLDataType{kDLInt, 32, 1});
  ASSERT_TRUE(bits.ok()) << bits.status();
  EXPECT_EQ(static_cast<const int32_t*>(bits->data())[7], 0x3fc00000);  // 1.5f
  absl::StatusOr<NDArray> vectors = a->View({3}, DLDataType{kDLFloat, 32, 4});
  ASSERT_TRUE(vectors.ok()) << vectors.status();
  EXPECT_EQ(vectors->NumBytes(), a->NumBytes());

  // The memory lives as long as any array over it.
  *a = NDArray();
  static_cast<float*>(reshaped->data())[0] = 2.0f;
  EXPECT_EQ(static_cast<const int32_t*>(bits->data())[0], 0x40000000);  // 2.0f
}

TEST(NDArrayTest, ViewsMustKeepTheByteSize) {
  auto a = NDArray::Empty({2, 6}, kF32);
  ASSERT_TRUE(a.ok());
  absl::StatusOr<NDArray> v = a->View({5});
  EXPECT_EQ(v.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(v.status().message().find("float32[5] takes 20 bytes, but the array float32[2, 6] "
                                      "has 48"),
            std::string::npos)
      << v.status();
  EXPECT_FALSE(a->View({12}, DLDataType{kDLFloat, 64, 1}).ok());
  EXPECT_FALSE(a->View({-12}).ok());
  EXPECT_FALSE(a->View({12}, DLDataType{kDLComplex, 32, 1}).ok());
  EXPECT_FALSE(NDArray().View({1}).ok());
}

TEST(NDArrayTest, CopiesToAndFromBytes) {
  auto a = NDArray::Empty({4}, DLDataType{kDLInt, 16, 1});
  ASSERT_TRUE(a.ok());
  const int16_t in[] = {1, -2, 3, -4};
  ASSERT_TRUE(a->CopyFromBytes(in, sizeof(in)).ok());
  int16_t out[4] = {};
  ASSERT_TRUE(a->CopyToBytes(out, sizeof(out)).ok());
  EXPECT_EQ(out[1], -2);
  EXPECT_EQ(out[3], -4);
  absl::Status st = a->CopyFromBytes(in, 6);
  EXPECT_EQ(st.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(st.message().find("got 6 bytes, but int16[4] takes 8"), std::string::npos) << st;
  EXPECT_FALSE(a->CopyToBytes(out, 10).ok());
  EXPECT_FALSE(NDArray().CopyToBytes(out, 8).ok());
}

TEST(NDArrayTest, CloneOwnsItsOwnMemory) {
  auto a = NDArray::Empty({3}, kF32);
  ASSERT_TRUE(a.ok());
  static_cast<float*>(a->data())[2] = 7.0f;
  absl::StatusOr<NDArray> b = a->Clone();
  ASSERT_TRUE(b.ok()) << b.status();
  EXPECT_NE(b->data(), a->data());
  EXPECT_FALSE(b->SharesMemoryWith(*a));
  EXPECT_EQ(reinterpret_cast<uintptr_t>(b->data()) % NDArray::kAlignment, 0u);
  EXPECT_EQ(static_cast<const float*>(b->data())[2], 7.0f);
  static_cast<float*>(b->data())[2] = 8.0f;
  EXPECT_EQ(static_cast<const float*>(a->data())[2], 7.0f);
  EXPECT_FALSE(NDArray().Clone().ok());
}

TEST(NDArrayTest, DLPackExportKeepsTheMemoryAliveUntilItsDeleterRuns) {
  auto a = NDArray::Empty({2, 3}, kF32);
  ASSERT_TRUE(a.ok());
  static_cast<float*>(a->data())[5] = 3.0f;
  DLManagedTensor* managed = a->ToDLPack();
  ASSERT_NE(managed, nullptr);
  ASSERT_NE(managed->deleter, nullptr);
  const DLTensor& t = managed->dl_tensor;
  EXPECT_EQ(t.data, a->data());
  EXPECT_EQ(t.ndim, 2);
  EXPECT_NE(t.shape, a->dl()->shape);  // its own copy of the shape
  EXPECT_EQ(t.shape[0], 2);
  EXPECT_EQ(t.shape[1], 3);
  EXPECT_EQ(t.strides, nullptr);
  EXPECT_EQ(t.device.device_type, kDLCPU);
  EXPECT_TRUE(SameDataType(t.dtype, kF32));

  *a = NDArray();  // the array goes; the export still reads valid memory
  EXPECT_EQ(static_cast<const float*>(t.data)[5], 3.0f);
  EXPECT_EQ(t.shape[1], 3);
  managed->deleter(managed);
  EXPECT_EQ(NDArray().ToDLPack(), nullptr);
}

}  // namespace
}  // namespace tunefarm::runtime
