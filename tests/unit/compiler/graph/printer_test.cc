#include "compiler/graph/printer.h"

#include <gtest/gtest.h>

#include "tests/testing/dl_types.h"

namespace tunefarm::graph {
namespace {

using fixtures::kF32;

TEST(GraphPrinterTest, PrintsConstantsByShapeAndNodesWithAttributesAndTypes) {
  Graph g;
  ValueId x = g.AddInput("input", {kF32, {1, 3, 224, 224}});
  ValueId w = g.AddConstant("conv1.weight", *runtime::NDArray::Empty({64, 3, 7, 7}, kF32));
  std::vector<ValueId> conv = *g.AddOp(
      OpKind::kConv2d, "conv1",
      {{"strides", std::vector<int64_t>{2, 2}}, {"pads", std::vector<int64_t>{3, 3, 3, 3}}},
      {x, w});
  std::vector<ValueId> clip = *g.AddOp(OpKind::kClip, "", {{"min", 0.0}, {"max", 6.0}}, {conv[0]});
  g.AddOutput("out", clip[0]);
  EXPECT_EQ(ToString(g),
            "graph(%input: float32[1,3,224,224]) {\n"
            "  @conv1.weight: float32[64,3,7,7]\n"
            "  %2 = conv2d(%input, @conv1.weight) pads=[3,3,3,3] strides=[2,2] : "
            "float32[1,64,112,112]  // conv1\n"
            "  %3 = clip(%2) max=6 min=0 : float32[1,64,112,112]\n"
            "  return out=%3\n"
            "}\n");
}

TEST(GraphPrinterTest, MultipleOutputsAndUnnamedValues) {
  Graph g;
  ValueId x = g.AddInput("", {kF32, {4}});
  std::vector<ValueId> parts =
      *g.AddOp(OpKind::kSplit, "s", {{"sizes", std::vector<int64_t>{1, 3}}}, {x});
  g.AddOutput("a", parts[0]);
  g.AddOutput("b", parts[1]);
  EXPECT_EQ(ToString(g),
            "graph(%0: float32[4]) {\n"
            "  %1, %2 = split(%0) sizes=[1,3] : float32[1], float32[3]  // s\n"
            "  return a=%1, b=%2\n"
            "}\n");
  EXPECT_EQ(ValueRef(g, 99), "%<bad 99>");
}

}  // namespace
}  // namespace tunefarm::graph
