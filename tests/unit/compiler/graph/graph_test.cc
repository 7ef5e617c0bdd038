#include "compiler/graph/graph.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "compiler/graph/verifier.h"
#include "tests/testing/dl_types.h"

namespace tunefarm::graph {
namespace {

using ::testing::HasSubstr;

using fixtures::kF32;

runtime::NDArray Zeros(std::vector<int64_t> shape) {
  return *runtime::NDArray::Empty(std::move(shape), kF32);
}

TEST(GraphTest, BuildsTypedValuesInOrder) {
  Graph g;
  ValueId x = g.AddInput("x", {kF32, {1, 3, 8, 8}});
  ValueId w = g.AddConstant("w", Zeros({4, 3, 3, 3}));
  absl::StatusOr<std::vector<ValueId>> conv = g.AddOp(
      OpKind::kConv2d, "conv", {{"pads", std::vector<int64_t>{1, 1, 1, 1}}}, {x, w}, {"conv_out"});
  ASSERT_TRUE(conv.ok()) << conv.status();
  absl::StatusOr<std::vector<ValueId>> relu = g.AddOp(OpKind::kRelu, "relu", {}, {(*conv)[0]});
  ASSERT_TRUE(relu.ok());
  g.AddOutput("y", (*relu)[0]);

  EXPECT_EQ(g.value((*relu)[0]).type.ToString(), "float32[1,4,8,8]");
  EXPECT_EQ(g.value(w).kind, ValueKind::kConstant);
  EXPECT_EQ(g.ConstantData(w)->shape(), (std::vector<int64_t>{4, 3, 3, 3}));
  EXPECT_EQ(g.ConstantData(x), nullptr);
  EXPECT_EQ(g.FindValue("conv_out"), (*conv)[0]);
  EXPECT_EQ(g.FindValue("nothing"), std::nullopt);
  EXPECT_EQ(g.nodes().size(), 2u);
  EXPECT_EQ(g.value((*relu)[0]).index, 1);
  EXPECT_TRUE(VerifyGraph(g).ok());
}

TEST(GraphTest, AddOpRejectsUnknownValuesAndBadTypesWithoutChangingTheGraph) {
  Graph g;
  ValueId x = g.AddInput("x", {kF32, {2, 3}});
  absl::StatusOr<std::vector<ValueId>> bad = g.AddOp(OpKind::kAdd, "add", {}, {x, 7});
  EXPECT_EQ(bad.status().message(), "add node 'add': input value %7 does not exist");
  absl::StatusOr<std::vector<ValueId>> wrong = g.AddOp(OpKind::kGemm, "fc", {}, {x, x});
  EXPECT_THAT(std::string(wrong.status().message()), HasSubstr("gemm node 'fc'"));
  EXPECT_EQ(g.nodes().size(), 0u);
  EXPECT_EQ(g.values().size(), 1u);
}

TEST(GraphTest, SplitMakesOneValuePerPart) {
  Graph g;
  ValueId x = g.AddInput("x", {kF32, {6}});
  absl::StatusOr<std::vector<ValueId>> parts =
      g.AddOp(OpKind::kSplit, "s", {{"sizes", std::vector<int64_t>{1, 2, 3}}}, {x}, {"a", "", "c"});
  ASSERT_TRUE(parts.ok());
  ASSERT_EQ(parts->size(), 3u);
  EXPECT_EQ(g.value((*parts)[2]).type.shape, (std::vector<int64_t>{3}));
  EXPECT_EQ(g.value((*parts)[1]).name, "");
  EXPECT_EQ(g.value((*parts)[2]).name, "c");
}

}  // namespace
}  // namespace tunefarm::graph
