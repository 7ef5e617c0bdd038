#include "compiler/graph/tensor_type.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace tunefarm::graph {
namespace {

using ::testing::HasSubstr;

TEST(TensorTypeTest, CountsElementsAndBytes) {
  TensorType t{{kDLFloat, 32, 1}, {1, 64, 112, 112}};
  EXPECT_EQ(*t.NumElements(), 64 * 112 * 112);
  EXPECT_EQ(*t.NumBytes(), 4 * 64 * 112 * 112);
  EXPECT_EQ(t.ToString(), "float32[1,64,112,112]");
  EXPECT_EQ(TensorType({kDLInt, 64, 1}, {}).ToString(), "int64[]");
  EXPECT_EQ(*TensorType({kDLInt, 64, 1}, {}).NumElements(), 1);
  EXPECT_EQ(*TensorType({kDLFloat, 32, 1}, {3, 0, 5}).NumElements(), 0);
}

TEST(TensorTypeTest, RejectsNegativeAndOverflowingShapes) {
  EXPECT_THAT(std::string(CheckedNumElements(std::vector<int64_t>{2, -1}).status().message()),
              HasSubstr("negative dimension -1"));
  EXPECT_FALSE(CheckedNumElements(std::vector<int64_t>{int64_t{1} << 40, int64_t{1} << 40}).ok());
  EXPECT_FALSE(CheckedNumElements(std::vector<int64_t>{INT64_MAX}).ok());
  EXPECT_FALSE(CheckedNumElements(std::vector<int64_t>{0, INT64_MAX}).ok());
  std::vector<int64_t> many(70, 2);  // 2^70 overflows int64 on the way
  EXPECT_FALSE(CheckedNumElements(many).ok());
  EXPECT_TRUE(CheckedNumElements(std::vector<int64_t>{int64_t{1} << 24, int64_t{1} << 24}).ok());
}

TEST(TensorTypeTest, EqualityComparesDtypeAndShape) {
  TensorType a{{kDLFloat, 32, 1}, {2, 3}};
  EXPECT_TRUE(a == (TensorType{{kDLFloat, 32, 1}, {2, 3}}));
  EXPECT_FALSE(a == (TensorType{{kDLFloat, 16, 1}, {2, 3}}));
  EXPECT_FALSE(a == (TensorType{{kDLFloat, 32, 1}, {3, 2}}));
}

}  // namespace
}  // namespace tunefarm::graph
