// gather, gather_elements, expand and tile through EvaluateOp against index arithmetic.
#include <gmock/gmock.h>

#include "tests/unit/compiler/graph/compute/compute_test_util.h"

namespace tunefarm::graph::testing {
namespace {

runtime::NDArray Indices(const Shape& shape, const std::vector<int64_t>& values) {
  runtime::NDArray a = *runtime::NDArray::Empty(shape, {kDLInt, 64, 1});
  std::copy(values.begin(), values.end(), static_cast<int64_t*>(a.data()));
  return a;
}

TEST(ComputeRepeatTest, GatherAlongEachAxisWithNegativeIndices) {
  runtime::NDArray data = Random({3, 4, 5}, 1);
  runtime::NDArray idx = Indices({2, 2}, {0, -1, 2, 1});
  for (int axis = 0; axis < 3; ++axis) {
    std::vector<runtime::NDArray> out =
        Eval(OpKind::kGather, {{"axis", int64_t{axis}}}, {&data, &idx});
    ASSERT_EQ(out.size(), 1u);
    Shape shape(data.shape().begin(), data.shape().begin() + axis);
    shape.push_back(2);
    shape.push_back(2);
    shape.insert(shape.end(), data.shape().begin() + axis + 1, data.shape().end());
    std::vector<float> want(Count(shape));
    for (int64_t i = 0; i < Count(shape); ++i) {
      Shape o = Unflatten(i, shape);
      int64_t k = static_cast<const int64_t*>(idx.data())[o[axis] * 2 + o[axis + 1]];
      if (k < 0) k += data.shape()[axis];
      Shape src(o.begin(), o.begin() + axis);
      src.push_back(k);
      src.insert(src.end(), o.begin() + axis + 2, o.end());
      want[i] = F(data)[Flatten(src, data.shape())];
    }
    EXPECT_TRUE(Close(out[0], shape, want, 0, 0)) << "axis " << axis;
  }
}

TEST(ComputeRepeatTest, GatherWithScalarIndexDropsTheAxis) {
  runtime::NDArray data = Random({2, 3, 4}, 2);
  runtime::NDArray idx = Indices({}, {1});
  std::vector<runtime::NDArray> out = Eval(OpKind::kGather, {{"axis", int64_t{1}}}, {&data, &idx});
  ASSERT_EQ(out.size(), 1u);
  std::vector<float> want;
  for (int n = 0; n < 2; ++n) {
    for (int k = 0; k < 4; ++k) want.push_back(F(data)[n * 12 + 4 + k]);
  }
  EXPECT_TRUE(Close(out[0], {2, 4}, want, 0, 0));
}

TEST(ComputeRepeatTest, GatherClampsIndicesOutOfRange) {
  runtime::NDArray data = Random({4}, 3);
  runtime::NDArray idx = Indices({2}, {9, -9});
  std::vector<runtime::NDArray> out = Eval(OpKind::kGather, {}, {&data, &idx});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_TRUE(Close(out[0], {2}, {F(data)[3], F(data)[0]}, 0, 0));
}

TEST(ComputeRepeatTest, GatherElementsPicksAlongOneAxis) {
  runtime::NDArray data = Random({3, 4}, 7);
  runtime::NDArray idx = Indices({2, 4}, {0, 2, -1, 1, 2, 0, 1, -3});
  std::vector<runtime::NDArray> out =
      Eval(OpKind::kGatherElements, {{"axis", int64_t{0}}}, {&data, &idx});
  ASSERT_EQ(out.size(), 1u);
  std::vector<float> want;
  for (int r = 0; r < 2; ++r) {
    for (int c = 0; c < 4; ++c) {
      int64_t k = static_cast<const int64_t*>(idx.data())[r * 4 + c];
      if (k < 0) k += 3;
      want.push_back(F(data)[k * 4 + c]);
    }
  }
  EXPECT_TRUE(Close(out[0], {2, 4}, want, 0, 0));
}

TEST(ComputeRepeatTest, ExpandBroadcastsBothWays) {
  runtime::NDArray x = Random({3, 1}, 4);
  std::vector<runtime::NDArray> out =
      Eval(OpKind::kExpand, {{"shape", std::vector<int64_t>{2, 1, 4}}}, {&x});
  ASSERT_EQ(out.size(), 1u);
  std::vector<float> want;
  for (int n = 0; n < 2; ++n) {
    for (int r = 0; r < 3; ++r) {
      for (int c = 0; c < 4; ++c) want.push_back(F(x)[r]);
    }
  }
  EXPECT_TRUE(Close(out[0], {2, 3, 4}, want, 0, 0));
  Node bad{OpKind::kExpand, "e", {{"shape", std::vector<int64_t>{2, 4}}}, {}, {}};
  runtime::NDArray y = Random({3, 2}, 5);
  absl::StatusOr<std::vector<runtime::NDArray>> r = EvaluateOp(bad, {&y});
  EXPECT_FALSE(r.ok());
}

TEST(ComputeRepeatTest, TileRepeatsEachAxis) {
  runtime::NDArray x = Random({2, 3}, 6);
  std::vector<runtime::NDArray> out =
      Eval(OpKind::kTile, {{"repeats", std::vector<int64_t>{2, 3}}}, {&x});
  ASSERT_EQ(out.size(), 1u);
  std::vector<float> want;
  for (int r = 0; r < 4; ++r) {
    for (int c = 0; c < 9; ++c) want.push_back(F(x)[(r % 2) * 3 + c % 3]);
  }
  EXPECT_TRUE(Close(out[0], {4, 9}, want, 0, 0));
}

}  // namespace
}  // namespace tunefarm::graph::testing
