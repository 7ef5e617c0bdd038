// Fusion by pattern kinds over the post-dominator tree: a conv with its elementwise epilogue is one
// group, two anchors never share one, an intermediate read from outside a group ends it, and
// injective chains fuse on their own.
#include "compiler/graph/fusion.h"

#include <gtest/gtest.h>

#include "compiler/graph/post_dominators.h"
#include "compiler/graph/verifier.h"
#include "tests/testing/dl_types.h"
#include "tests/unit/compiler/graph/test_op.h"

namespace tunefarm::graph {
namespace {

using testing::Op;

using fixtures::kF32;

ValueId ConvOf(Graph& g, ValueId x, int channels_in, int channels_out) {
  ValueId w = g.AddConstant("", *runtime::NDArray::Empty({channels_out, channels_in, 3, 3}, kF32));
  return Op(g, OpKind::kConv2d, {x, w}, {{"pads", std::vector<int64_t>{1, 1, 1, 1}}});
}

// The nodes of each group, by index.
std::vector<std::vector<int>> Groups(const FusionPlan& plan) {
  std::vector<std::vector<int>> out;
  for (const FusedGroup& g : plan.groups) out.push_back(g.nodes);
  return out;
}

TEST(FusionTest, AConvTakesItsBiasAndActivation) {
  Graph g;
  ValueId x = g.AddInput("x", {kF32, {1, 4, 8, 8}});
  ValueId conv = ConvOf(g, x, 4, 8);
  ValueId bias = g.AddConstant("b", *runtime::NDArray::Empty({8, 1, 1}, kF32));
  ValueId relu = Op(g, OpKind::kRelu, {Op(g, OpKind::kAdd, {conv, bias})});
  g.AddOutput("y", relu);
  FusionPlan plan = PlanFusion(g);
  EXPECT_EQ(Groups(plan), (std::vector<std::vector<int>>{{0, 1, 2}}));
  EXPECT_EQ(plan.groups[0].anchor, 0);
  EXPECT_EQ(plan.groups[0].kind, PatternKind::kOutEWiseFusable);
}

TEST(FusionTest, AResidualBlockIsTwoKernels) {
  Graph g;
  ValueId x = g.AddInput("x", {kF32, {1, 8, 8, 8}});
  ValueId r1 = Op(g, OpKind::kRelu, {ConvOf(g, x, 8, 8)});             // nodes 0, 1
  ValueId c2 = ConvOf(g, r1, 8, 8);                                    // node 2
  ValueId out = Op(g, OpKind::kRelu, {Op(g, OpKind::kAdd, {c2, x})});  // nodes 3, 4
  g.AddOutput("y", out);
  EXPECT_EQ(Groups(PlanFusion(g)), (std::vector<std::vector<int>>{{0, 1}, {2, 3, 4}}));
}

TEST(FusionTest, BranchesThatMeetAgainJoinTheAnchorsGroup) {
  Graph g;
  ValueId x = g.AddInput("x", {kF32, {1, 4, 8, 8}});
  ValueId relu = Op(g, OpKind::kRelu, {ConvOf(g, x, 4, 4)});  // nodes 0, 1
  ValueId a = Op(g, OpKind::kSigmoid, {relu});                // 2
  ValueId b = Op(g, OpKind::kTanh, {relu});                   // 3
  g.AddOutput("y", Op(g, OpKind::kMul, {a, b}));              // 4
  PostDominators dom = ComputePostDominators(g);
  EXPECT_EQ(dom.immediate[1], 4);  // every path from the relu meets at the mul
  EXPECT_EQ(Groups(PlanFusion(g)), (std::vector<std::vector<int>>{{0, 1, 2, 3, 4}}));
}

TEST(FusionTest, AnIntermediateThatIsAlsoAnOutputEndsTheGroup) {
  Graph g;
  ValueId x = g.AddInput("x", {kF32, {1, 4, 8, 8}});
  ValueId conv = ConvOf(g, x, 4, 4);
  ValueId relu = Op(g, OpKind::kRelu, {conv});
  g.AddOutput("features", conv);
  g.AddOutput("y", relu);
  EXPECT_EQ(Groups(PlanFusion(g)), (std::vector<std::vector<int>>{{0}, {1}}));
}

TEST(FusionTest, TwoAnchorsNeverShareAGroup) {
  Graph g;
  ValueId x = g.AddInput("x", {kF32, {1, 4, 8, 8}});
  ValueId a = ConvOf(g, x, 4, 4);                 // 0
  ValueId b = ConvOf(g, x, 4, 4);                 // 1
  g.AddOutput("y", Op(g, OpKind::kAdd, {a, b}));  // 2
  FusionPlan plan = PlanFusion(g);
  // One conv takes the add; the other is a kernel of its own, which runs first.
  ASSERT_EQ(plan.groups.size(), 2u);
  EXPECT_EQ(plan.groups[0].nodes, std::vector<int>{1});
  EXPECT_EQ(plan.groups[1].nodes, (std::vector<int>{0, 2}));
}

TEST(FusionTest, InjectiveChainsFuseAndOpaqueOpsStandAlone) {
  Graph g;
  ValueId x = g.AddInput("x", {kF32, {2, 3, 4}});
  ValueId t = Op(g, OpKind::kTranspose, {x}, {{"perm", std::vector<int64_t>{0, 2, 1}}});  // 0
  ValueId f = Op(g, OpKind::kFlatten, {t}, {{"axis", int64_t{1}}});                       // 1
  ValueId s = Op(g, OpKind::kSoftmax, {f}, {{"axis", int64_t{1}}});                       // 2
  g.AddOutput("y", Op(g, OpKind::kExp, {s}));                                             // 3
  FusionPlan plan = PlanFusion(g);
  EXPECT_EQ(Groups(plan), (std::vector<std::vector<int>>{{0, 1}, {2}, {3}}));
  EXPECT_EQ(plan.groups[0].anchor, -1);
}

TEST(FusionTest, FuseOpsMarksEveryNodeAndKeepsTheGraphValid) {
  Graph g;
  ValueId x = g.AddInput("x", {kF32, {1, 8, 8, 8}});
  ValueId r1 = Op(g, OpKind::kRelu, {ConvOf(g, x, 8, 8)});
  g.AddOutput("y", Op(g, OpKind::kRelu, {Op(g, OpKind::kAdd, {ConvOf(g, r1, 8, 8), x})}));
  absl::StatusOr<Graph> fused = FuseOps(std::move(g));
  ASSERT_TRUE(fused.ok()) << fused.status();
  EXPECT_TRUE(VerifyGraph(*fused).ok());
  std::vector<int> groups;
  for (const Node& n : fused->nodes()) groups.push_back(n.fused_group);
  EXPECT_EQ(groups, (std::vector<int>{0, 0, 1, 1, 1}));
  const std::string text = DescribeFusion(*fused, PlanFusion(*fused));
  EXPECT_NE(text.find("group 1 [conv2d+add+relu] anchor"), std::string::npos) << text;
}

}  // namespace
}  // namespace tunefarm::graph
