// The Winograd rewrite: after the layout rewrite, the 3x3 stride-1 blocked convs its rule picks
// become a weight transform (a constant once folded) and a Winograd conv in the same layouts;
// strided, small or few-channel convs stay direct, and the graph stays valid throughout.
#include "compiler/graph/winograd_rewrite.h"

#include <gtest/gtest.h>
#include <map>
#include <string>

#include "compiler/graph/constant_folding.h"
#include "compiler/graph/layout_rewrite.h"
#include "compiler/graph/op_registry.h"
#include "compiler/graph/verifier.h"
#include "tests/testing/dl_types.h"
#include "tests/unit/compiler/graph/test_op.h"

namespace tunefarm::graph {
namespace {

using testing::Op;
using testing::OpCounts;

using fixtures::kF32;

ValueId StridedConv(Graph& g, ValueId x, int64_t in, int64_t out, int64_t stride) {
  ValueId w = g.AddConstant("", *runtime::NDArray::Empty({out, in, 3, 3}, kF32));
  return Op(g, OpKind::kConv2d, {x, w},
            {{"pads", std::vector<int64_t>{1, 1, 1, 1}},
             {"strides", std::vector<int64_t>{stride, stride}}});
}

Graph WinogradRewritten(Graph g, const WinogradChooser& choose = DefaultWinogradTile) {
  absl::StatusOr<Graph> blocked = RewriteLayoutNchwc(std::move(g), topi::Avx2Cpu());
  EXPECT_TRUE(blocked.ok()) << blocked.status();
  if (!blocked.ok()) return Graph();
  absl::StatusOr<Graph> out = RewriteWinograd(*std::move(blocked), choose);
  EXPECT_TRUE(out.ok()) << out.status();
  if (!out.ok()) return Graph();
  EXPECT_TRUE(VerifyGraph(*out).ok()) << VerifyGraph(*out);
  return *std::move(out);
}

TEST(WinogradRewriteTest, LargeStrideOneConvsBecomeWinogradAndTheRestStayDirect) {
  Graph g;
  ValueId x = g.AddInput("x", {kF32, {1, 32, 16, 16}});
  ValueId a = StridedConv(g, x, 32, 32, 1);        // 16x16, 32 channels: Winograd
  ValueId b = StridedConv(g, a, 32, 32, 2);        // stride 2: direct
  g.AddOutput("y", StridedConv(g, b, 32, 32, 1));  // 8x8: direct
  Graph out = WinogradRewritten(std::move(g));
  std::map<std::string, int> ops = OpCounts(out);
  EXPECT_EQ(ops["conv2d_winograd_nchwc"], 1);
  EXPECT_EQ(ops["winograd_weight"], 1);
  EXPECT_EQ(ops["conv2d_nchwc"], 2);
  for (const Node& n : out.nodes()) {
    if (n.op != OpKind::kConv2dWinogradNchwc) continue;
    EXPECT_EQ(*n.attrs.Int("tile", 0), 4);
    // [6][6][OB][CB][ic][oc]: the packed weight transformed for F(4x4, 3x3).
    EXPECT_EQ(out.value(n.inputs[1]).type.shape[0], 6);
    EXPECT_EQ(out.value(n.outputs[0]).type.shape, (std::vector<int64_t>{1, 2, 16, 16, 16}));
  }
  // Constant folding evaluates the transform once, however much larger it is than the kernel.
  absl::StatusOr<Graph> folded = FoldConstants(std::move(out));
  ASSERT_TRUE(folded.ok()) << folded.status();
  EXPECT_EQ(OpCounts(*folded)["winograd_weight"], 0);
}

TEST(WinogradRewriteTest, TheRulePicksFourByFourTilesForLargeLayersOnly) {
  EXPECT_EQ(WinogradTileFor(56, 64, 64), 4);
  EXPECT_EQ(WinogradTileFor(14, 256, 256), 4);
  EXPECT_EQ(WinogradTileFor(7, 512, 512), 0);
  EXPECT_EQ(WinogradTileFor(56, 16, 64), 0);
}

TEST(WinogradRewriteTest, TheChooserPicksEachConvsAlgorithmAndTile) {
  // The records' choice: tile 2 for the small layer the rule keeps direct, direct for the large
  // one the rule would rewrite; the strided conv is never asked.
  Graph g;
  ValueId x = g.AddInput("x", {kF32, {1, 32, 16, 16}});
  ValueId a = StridedConv(g, x, 32, 32, 1);  // 16x16
  ValueId b = StridedConv(g, a, 32, 32, 2);
  g.AddOutput("y", StridedConv(g, b, 32, 32, 1));  // 8x8
  int asked = 0;
  Graph out = WinogradRewritten(std::move(g), [&](const Graph& graph, const Node& node) {
    ++asked;
    EXPECT_EQ(WinogradPadding(graph, node), 1);
    return graph.value(node.outputs[0]).type.shape[2] == 8 ? int64_t{2} : int64_t{0};
  });
  EXPECT_EQ(asked, 2);
  std::map<std::string, int> ops = OpCounts(out);
  EXPECT_EQ(ops["conv2d_winograd_nchwc"], 1);
  EXPECT_EQ(ops["conv2d_nchwc"], 2);
  for (const Node& n : out.nodes()) {
    if (n.op != OpKind::kConv2dWinogradNchwc) continue;
    EXPECT_EQ(*n.attrs.Int("tile", 0), 2);
    EXPECT_EQ(out.value(n.inputs[1]).type.shape[0], 4) << "F(2x2, 3x3): 4x4 tiles";
    EXPECT_EQ(WinogradPadding(out, n), 1) << "the Winograd conv keeps its padding";
  }
}

TEST(WinogradRewriteTest, AChooserErrorOrATileOutsideTwoFourSixIsRefused) {
  auto one_conv = [] {
    Graph g;
    ValueId x = g.AddInput("x", {kF32, {1, 32, 16, 16}});
    g.AddOutput("y", StridedConv(g, x, 32, 32, 1));
    absl::StatusOr<Graph> blocked = RewriteLayoutNchwc(std::move(g), topi::Avx2Cpu());
    EXPECT_TRUE(blocked.ok()) << blocked.status();
    return *std::move(blocked);
  };
  absl::StatusOr<Graph> three =
      RewriteWinograd(one_conv(), [](const Graph&, const Node&) { return int64_t{3}; });
  ASSERT_FALSE(three.ok());
  EXPECT_NE(three.status().message().find("Winograd tile 3"), std::string::npos) << three.status();
  absl::StatusOr<Graph> failed = RewriteWinograd(one_conv(), [](const Graph&, const Node&) {
    return absl::StatusOr<int64_t>(absl::NotFoundError("no records"));
  });
  EXPECT_EQ(failed.status().code(), absl::StatusCode::kNotFound);
}

TEST(WinogradRewriteTest, AWinogradConvWithAMismatchedWeightIsRefusedByName) {
  Graph g;
  ValueId x = g.AddInput("x", {kF32, {1, 2, 8, 8, 16}});
  ValueId w = g.AddConstant("w", *runtime::NDArray::Empty({4, 4, 2, 2, 16, 16}, kF32));
  absl::StatusOr<std::vector<ValueId>> y =
      g.AddOp(OpKind::kConv2dWinogradNchwc, "wino", Attributes{{"tile", int64_t{4}}}, {x, w});
  ASSERT_FALSE(y.ok());
  EXPECT_NE(y.status().message().find("conv2d_winograd_nchwc node 'wino'"), std::string::npos)
      << y.status();
  EXPECT_NE(y.status().message().find("must be [6][6][OB][2][16][oc]"), std::string::npos)
      << y.status();
}

}  // namespace
}  // namespace tunefarm::graph
