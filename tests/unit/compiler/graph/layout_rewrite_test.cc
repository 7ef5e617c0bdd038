// The layout rewrite: convolutions go blocked (NCHW[c]c), the elementwise and broadcast ops
// between them follow, and layout transforms appear only where a producer and a consumer
// disagree, once per value. Values are checked against the NCHW graph in model_build_test.
#include "compiler/graph/layout_rewrite.h"

#include <gtest/gtest.h>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "compiler/graph/op_registry.h"
#include "compiler/graph/verifier.h"
#include "tests/testing/dl_types.h"
#include "tests/unit/compiler/graph/test_op.h"

namespace tunefarm::graph {
namespace {

using testing::Op;
using testing::OpCounts;

using fixtures::kF32;

ValueId Conv(Graph& g, ValueId x, int64_t in, int64_t out, int64_t groups = 1) {
  ValueId w = g.AddConstant("", *runtime::NDArray::Empty({out, in / groups, 3, 3}, kF32));
  return Op(g, OpKind::kConv2d, {x, w},
            {{"pads", std::vector<int64_t>{1, 1, 1, 1}}, {"groups", groups}});
}

Graph Rewritten(Graph g) {
  // 8-lane vectors: output channels in blocks of 16 (two vectors) where there are 16.
  absl::StatusOr<Graph> out = RewriteLayoutNchwc(std::move(g), topi::Avx2Cpu());
  EXPECT_TRUE(out.ok()) << out.status();
  if (!out.ok()) return Graph();
  EXPECT_TRUE(VerifyGraph(*out).ok()) << VerifyGraph(*out);
  return *std::move(out);
}

TEST(LayoutRewriteTest, AResidualBlockStaysBlockedBetweenItsTwoTransforms) {
  Graph g;
  ValueId x = g.AddInput("x", {kF32, {1, 16, 8, 8}});
  ValueId c1 = Op(g, OpKind::kRelu, {Conv(g, x, 16, 16)});
  ValueId c2 = Conv(g, c1, 16, 16);
  ValueId sum = Op(g, OpKind::kRelu, {Op(g, OpKind::kAdd, {c2, x})});
  ValueId half =
      Op(g, OpKind::kMul, {sum, g.AddConstant("h", *runtime::NDArray::Empty({1}, kF32))});
  g.AddOutput(
      "y", Op(g, OpKind::kMaxPool2d, {half},
              {{"kernel", std::vector<int64_t>{2, 2}}, {"strides", std::vector<int64_t>{2, 2}}}));
  Graph out = Rewritten(std::move(g));
  std::map<std::string, int> ops = OpCounts(out);
  // x enters once (read by the first conv and the residual add alike); the pool pools the
  // blocks, and only the graph's output leaves the blocked layout.
  EXPECT_EQ(ops["to_nchwc"], 1);
  EXPECT_EQ(ops["from_nchwc"], 1);
  EXPECT_EQ(ops["conv2d_nchwc"], 2);
  EXPECT_EQ(ops["conv2d"], 0);
  const Node& back = out.nodes().back();
  ASSERT_EQ(back.op, OpKind::kFromNchwc);
  const Node& pool = out.nodes()[out.nodes().size() - 2];
  ASSERT_EQ(pool.op, OpKind::kMaxPool2d);
  EXPECT_EQ(out.value(pool.inputs[0]).type.shape, (std::vector<int64_t>{1, 1, 8, 8, 16}));
  EXPECT_EQ(out.value(pool.outputs[0]).type.shape, (std::vector<int64_t>{1, 1, 4, 4, 16}));
  // The add, the relus and the multiply by a one-element constant ran on blocked values.
  for (const Node& n : out.nodes()) {
    if (n.op == OpKind::kAdd || n.op == OpKind::kRelu || n.op == OpKind::kMul) {
      EXPECT_EQ(out.value(n.outputs[0]).type.shape, (std::vector<int64_t>{1, 1, 8, 8, 16}));
    }
  }
}

TEST(LayoutRewriteTest, ChannelsABlockDoesNotDivideArePaddedAndDroppedAgain) {
  Graph g;
  ValueId x = g.AddInput("x", {kF32, {1, 3, 6, 6}});
  ValueId c = Op(g, OpKind::kRelu, {Conv(g, x, 3, 20)});
  ValueId dw = Conv(g, c, 20, 20, /*groups=*/20);
  g.AddOutput("y", dw);
  Graph out = Rewritten(std::move(g));
  std::map<std::string, int> ops = OpCounts(out);
  EXPECT_EQ(ops["conv2d_nchwc"], 1);
  EXPECT_EQ(ops["depthwise_conv2d_nchwc"], 1);
  // 20 output channels in two blocks of 16 (the last one padded); the depthwise conv keeps them.
  for (const Node& n : out.nodes()) {
    if (n.op == OpKind::kDepthwiseConv2dNchwc) {
      EXPECT_EQ(out.value(n.outputs[0]).type.shape, (std::vector<int64_t>{1, 2, 6, 6, 16}));
    }
  }
  const GraphOutput& y = out.outputs()[0];
  EXPECT_EQ(out.value(y.value).type.shape, (std::vector<int64_t>{1, 20, 6, 6}));
  EXPECT_EQ(ops["from_nchwc"], 1);
}

TEST(LayoutRewriteTest, AConvWithComputedWeightsStaysNchw) {
  Graph g;
  ValueId x = g.AddInput("x", {kF32, {1, 16, 8, 8}});
  ValueId w = g.AddInput("w", {kF32, {16, 16, 3, 3}});
  g.AddOutput("y", Op(g, OpKind::kConv2d, {x, w}));
  Graph out = Rewritten(std::move(g));
  std::map<std::string, int> ops = OpCounts(out);
  EXPECT_EQ(ops["conv2d"], 1);
  EXPECT_EQ(ops["to_nchwc"] + ops["from_nchwc"], 0);
}

// The one node of `op` in `g`.
const Node& OnlyNode(const Graph& g, OpKind op) {
  const Node* found = nullptr;
  for (const Node& n : g.nodes()) {
    if (n.op != op) continue;
    EXPECT_EQ(found, nullptr) << "two " << OpName(op);
    found = &n;
  }
  EXPECT_NE(found, nullptr) << "no " << OpName(op);
  return found != nullptr ? *found : g.nodes().front();
}

TEST(LayoutRewriteTest, GroupsNarrowerThanABlockShareItWithABlockDiagonalWeight) {
  // 16 channels in groups of 4, 8-lane blocks: two groups to a block, each output channel's
  // four inputs at its group's place in the block, zeros elsewhere.
  Graph g;
  ValueId x = g.AddInput("x", {kF32, {1, 16, 6, 6}});
  runtime::NDArray w = *runtime::NDArray::Empty({16, 4, 3, 3}, kF32);
  float* wd = static_cast<float*>(w.data());
  for (int64_t i = 0; i < w.NumElements(); ++i) wd[i] = static_cast<float>(i + 1);
  g.AddOutput("y", Op(g, OpKind::kConv2d, {x, g.AddConstant("w", std::move(w))},
                      {{"pads", std::vector<int64_t>{1, 1, 1, 1}}, {"groups", int64_t{4}}}));
  Graph out = Rewritten(std::move(g));
  const Node& conv = OnlyNode(out, OpKind::kGroupConv2dNchwc);
  EXPECT_EQ(conv.attrs.Int("out_blocks_per_group", 0).value_or(0), 1);
  EXPECT_EQ(out.value(conv.inputs[0]).type.shape, (std::vector<int64_t>{1, 2, 6, 6, 8}));
  const runtime::NDArray* packed = out.ConstantData(conv.inputs[1]);
  ASSERT_NE(packed, nullptr);
  ASSERT_EQ(packed->shape(), (std::vector<int64_t>{2, 1, 3, 3, 8, 8}));
  const float* p = static_cast<const float*>(packed->data());
  // [ob][0][ky][kx][ci][oi] against w[o][c][ky][kx], o = ob*8 + oi, group o / 4.
  for (int64_t ob = 0; ob < 2; ++ob) {
    for (int64_t ky = 0; ky < 3; ++ky) {
      for (int64_t kx = 0; kx < 3; ++kx) {
        for (int64_t ci = 0; ci < 8; ++ci) {
          for (int64_t oi = 0; oi < 8; ++oi) {
            const int64_t o = ob * 8 + oi;
            const float want = ci / 4 == oi / 4
                                   ? static_cast<float>(((o * 4 + ci % 4) * 3 + ky) * 3 + kx + 1)
                                   : 0.0f;
            ASSERT_EQ(p[(((ob * 3 + ky) * 3 + kx) * 8 + ci) * 8 + oi], want)
                << "ob " << ob << " ky " << ky << " kx " << kx << " ci " << ci << " oi " << oi;
          }
        }
      }
    }
  }
}

TEST(LayoutRewriteTest, GroupsOfWholeBlocksReadTheirOwnBlocksAndOddWidthsStayNchw) {
  // 32 -> 64 channels in 2 groups (16 in, 32 out each), 8-lane blocks: each group's 4 output
  // blocks read its 2 input blocks, no zeros.
  Graph g;
  ValueId x = g.AddInput("x", {kF32, {1, 32, 6, 6}});
  g.AddOutput("y", Conv(g, x, 32, 64, /*groups=*/2));
  Graph out = Rewritten(std::move(g));
  const Node& conv = OnlyNode(out, OpKind::kGroupConv2dNchwc);
  EXPECT_EQ(conv.attrs.Int("out_blocks_per_group", 0).value_or(0), 4);
  EXPECT_EQ(out.value(conv.inputs[0]).type.shape, (std::vector<int64_t>{1, 4, 6, 6, 8}));
  EXPECT_EQ(out.value(conv.inputs[1]).type.shape, (std::vector<int64_t>{8, 2, 3, 3, 8, 8}));
  EXPECT_EQ(out.value(conv.outputs[0]).type.shape, (std::vector<int64_t>{1, 8, 6, 6, 8}));

  // 16 -> 8 channels in 2 groups (8 in, 4 out each): both groups in one output block, which
  // reads both input blocks.
  Graph wide;
  ValueId z = wide.AddInput("x", {kF32, {1, 16, 6, 6}});
  wide.AddOutput("y", Conv(wide, z, 16, 8, /*groups=*/2));
  Graph wide_out = Rewritten(std::move(wide));
  const Node& wide_conv = OnlyNode(wide_out, OpKind::kGroupConv2dNchwc);
  EXPECT_EQ(wide_conv.attrs.Int("out_blocks_per_group", 0).value_or(0), 1);
  EXPECT_EQ(wide_out.value(wide_conv.inputs[1]).type.shape,
            (std::vector<int64_t>{1, 2, 3, 3, 8, 8}));

  // Groups of 6: no block of whole vectors holds whole groups, nor a group whole blocks.
  Graph odd;
  ValueId y = odd.AddInput("x", {kF32, {1, 12, 6, 6}});
  odd.AddOutput("y", Conv(odd, y, 12, 12, /*groups=*/2));
  std::map<std::string, int> ops = OpCounts(Rewritten(std::move(odd)));
  EXPECT_EQ(ops["conv2d"], 1);
  EXPECT_EQ(ops["group_conv2d_nchwc"] + ops["to_nchwc"] + ops["from_nchwc"], 0);
}

TEST(LayoutRewriteTest, AGroupedBlockedConvWhoseGroupsDoNotCoverTheDataIsRefused) {
  Graph g;
  ValueId x = g.AddInput("x", {kF32, {1, 4, 6, 6, 8}});
  ValueId w = g.AddConstant("w", *runtime::NDArray::Empty({8, 2, 3, 3, 8, 8}, kF32));
  absl::StatusOr<std::vector<ValueId>> bad =
      g.AddOp(OpKind::kGroupConv2dNchwc, "g", Attributes{{"out_blocks_per_group", int64_t{3}}},
              {x, w}, {"y"});
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("out_blocks_per_group 3"), std::string::npos)
      << bad.status();
  absl::StatusOr<std::vector<ValueId>> good =
      g.AddOp(OpKind::kGroupConv2dNchwc, "g", Attributes{{"out_blocks_per_group", int64_t{4}}},
              {x, w}, {"y"});
  ASSERT_TRUE(good.ok()) << good.status();
  EXPECT_EQ(g.value((*good)[0]).type.shape, (std::vector<int64_t>{1, 8, 4, 4, 8}));
}

TEST(LayoutRewriteTest, ASqueezeAndExcitationScaleAndPerChannelConstantsFollowTheBlocks) {
  Graph g;
  ValueId x = g.AddInput("x", {kF32, {1, 16, 8, 8}});
  ValueId f = Conv(g, x, 16, 16);
  ValueId pooled = Op(g, OpKind::kGlobalAvgPool2d, {f});
  ValueId scale = Op(g, OpKind::kSigmoid, {Conv(g, pooled, 16, 16)});
  ValueId excited = Op(g, OpKind::kMul, {scale, f});
  ValueId shift = g.AddConstant("shift", *runtime::NDArray::Empty({1, 16, 1, 1}, kF32));
  g.AddOutput("y", Conv(g, Op(g, OpKind::kSub, {excited, shift}), 16, 16));
  Graph out = Rewritten(std::move(g));
  std::map<std::string, int> ops = OpCounts(out);
  EXPECT_EQ(ops["to_nchwc"], 1);
  EXPECT_EQ(ops["from_nchwc"], 1);
  EXPECT_EQ(ops["conv2d_nchwc"], 3);
  EXPECT_EQ(out.value(OnlyNode(out, OpKind::kGlobalAvgPool2d).outputs[0]).type.shape,
            (std::vector<int64_t>{1, 1, 1, 1, 16}));
  const Node& mul = OnlyNode(out, OpKind::kMul);
  EXPECT_EQ(out.value(mul.outputs[0]).type.shape, (std::vector<int64_t>{1, 1, 8, 8, 16}));
  const Node& sub = OnlyNode(out, OpKind::kSub);
  EXPECT_EQ(out.value(sub.inputs[1]).type.shape, (std::vector<int64_t>{1, 1, 1, 1, 16}));
}

TEST(LayoutRewriteTest, OpsThatCanTurnPaddingNonFiniteRunBlockedOnlyOnWholeBlocks) {
  // log(0) of a padding lane would be -inf: with 12 channels in blocks of 8 the log reads
  // NCHW; with 16 channels no lane pads, and it stays blocked.
  for (int64_t channels : {12, 16}) {
    Graph g;
    ValueId x = g.AddInput("x", {kF32, {1, 16, 8, 8}});
    ValueId log = Op(g, OpKind::kUnary, {Conv(g, x, 16, channels)}, {{"fn", std::string("log")}});
    ValueId relu = Op(g, OpKind::kRelu, {Conv(g, x, 16, channels)});
    g.AddOutput("y", Op(g, OpKind::kAdd, {log, relu}));
    Graph out = Rewritten(std::move(g));
    const Node& unary = OnlyNode(out, OpKind::kUnary);
    EXPECT_EQ(out.value(unary.outputs[0]).type.shape.size(), channels == 16 ? 5u : 4u)
        << channels << " channels";
  }
}

TEST(LayoutRewriteTest, AConvOfFewFiltersGetsANarrowBlock) {
  // 3 output channels (an image's) on 8-lane vectors: a block of 4, not 8.
  Graph g;
  ValueId x = g.AddInput("x", {kF32, {1, 16, 6, 6}});
  g.AddOutput("y", Conv(g, Op(g, OpKind::kRelu, {Conv(g, x, 16, 16)}), 16, 3));
  Graph out = Rewritten(std::move(g));
  int narrow = 0;
  for (const Node& n : out.nodes()) {
    if (n.op != OpKind::kConv2dNchwc) continue;
    const std::vector<int64_t>& shape = out.value(n.outputs[0]).type.shape;
    if (shape[4] == 4) ++narrow;
  }
  EXPECT_EQ(narrow, 1);
  EXPECT_EQ(ConvOcBlockCandidates(3, topi::Avx2Cpu()), (std::vector<int64_t>{4}));
}

// The node index of the graph's `k`-th conv2d.
size_t ConvIndex(const Graph& g, int k) {
  for (size_t i = 0; i < g.nodes().size(); ++i) {
    if (g.nodes()[i].op == OpKind::kConv2d && k-- == 0) return i;
  }
  ADD_FAILURE() << "no conv " << k;
  return 0;
}

// x -> conv1 -> relu -> conv2, and conv2 + x: the residual block above, without the tail.
Graph ResidualBlock() {
  Graph g;
  ValueId x = g.AddInput("x", {kF32, {1, 16, 8, 8}});
  ValueId c1 = Op(g, OpKind::kRelu, {Conv(g, x, 16, 16)});
  ValueId c2 = Conv(g, c1, 16, 16);
  g.AddOutput("y", Op(g, OpKind::kAdd, {c2, x}));
  return g;
}

TEST(LayoutRewriteTest, APlannedBlockIsTheConvsAndItsConsumersAndTheAddTransformsTheOtherSide) {
  const Graph g = ResidualBlock();
  const size_t conv2 = ConvIndex(g, 1);
  absl::StatusOr<Graph> out = RewriteLayoutNchwc(g, topi::Avx2Cpu(), {{conv2, 8}});
  ASSERT_TRUE(out.ok()) << out.status();
  ASSERT_TRUE(VerifyGraph(*out).ok()) << VerifyGraph(*out);
  std::vector<std::vector<int64_t>> conv_outputs;
  for (const Node& n : out->nodes()) {
    if (n.op == OpKind::kConv2dNchwc) conv_outputs.push_back(out->value(n.outputs[0]).type.shape);
    // The add runs in its first input's blocks: conv2's eight.
    if (n.op == OpKind::kAdd) {
      EXPECT_EQ(out->value(n.outputs[0]).type.shape, (std::vector<int64_t>{1, 2, 8, 8, 8}));
    }
  }
  // conv1 keeps the rule's 16; conv2 has the planned 8 (and reads conv1's 16 as they are).
  EXPECT_EQ(conv_outputs, (std::vector<std::vector<int64_t>>{{1, 1, 8, 8, 16}, {1, 2, 8, 8, 8}}));
  // x enters twice: in blocks of 16 for conv1 and of 8 for the add.
  std::map<std::string, int> ops = OpCounts(*out);
  EXPECT_EQ(ops["to_nchwc"], 2);
  EXPECT_EQ(ops["from_nchwc"], 1);

  // The rule's own block, planned, is the rule's layout.
  absl::StatusOr<Graph> same = RewriteLayoutNchwc(g, topi::Avx2Cpu(), {{conv2, 16}});
  ASSERT_TRUE(same.ok()) << same.status();
  EXPECT_EQ(OpCounts(*same)["to_nchwc"], 1);
}

TEST(LayoutRewriteTest, APlanThatIsNotTheConvsCandidatesIsRefusedNamingTheNode) {
  const Graph g = ResidualBlock();
  EXPECT_EQ(ConvOcBlockCandidates(16, topi::Avx2Cpu()), (std::vector<int64_t>{8, 16}));
  EXPECT_EQ(ConvOcBlockCandidates(12, topi::Avx2Cpu()), (std::vector<int64_t>{8}));
  absl::StatusOr<Graph> odd = RewriteLayoutNchwc(g, topi::Avx2Cpu(), {{ConvIndex(g, 0), 24}});
  ASSERT_FALSE(odd.ok());
  EXPECT_EQ(odd.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(odd.status().message().find("cannot have an output block of 24"), std::string::npos)
      << odd.status();
  EXPECT_NE(odd.status().message().find("candidates: 8, 16"), std::string::npos) << odd.status();
  // The relu after conv1 is not a conv.
  absl::StatusOr<Graph> relu = RewriteLayoutNchwc(g, topi::Avx2Cpu(), {{ConvIndex(g, 0) + 1, 8}});
  ASSERT_FALSE(relu.ok());
  EXPECT_NE(relu.status().message().find("is not a conv"), std::string::npos) << relu.status();
  absl::StatusOr<Graph> outside = RewriteLayoutNchwc(g, topi::Avx2Cpu(), {{999, 8}});
  ASSERT_FALSE(outside.ok());
  EXPECT_NE(outside.status().message().find("#999"), std::string::npos) << outside.status();
}

// conv2d_int8 over uint8 data of 6 channels: [N,C,H,W] int8 weight, [O] parameters.
ValueId Int8Conv(Graph& g, ValueId x, int64_t in, int64_t out) {
  const DLDataType i8{kDLInt, 8, 1}, i32{kDLInt, 32, 1};
  std::vector<ValueId> inputs = {x,
                                 g.AddConstant("", *runtime::NDArray::Empty({out, in, 3, 3}, i8)),
                                 g.AddConstant("", *runtime::NDArray::Empty({out}, i32)),
                                 g.AddConstant("", *runtime::NDArray::Empty({out}, kF32)),
                                 g.AddConstant("", *runtime::NDArray::Empty({out}, kF32))};
  return Op(g, OpKind::kConv2dInt8, inputs,
            {{"pads", std::vector<int64_t>{1, 1, 1, 1}}, {"x_zero_point", int64_t{3}}});
}

TEST(LayoutRewriteTest, Int8ConvsGoBlockedAndTheirRequantizeFollowsBetweenThem) {
  const DLDataType u8{kDLUInt, 8, 1};
  Graph g;
  ValueId x = g.AddInput("x", {u8, {1, 6, 8, 8}});
  ValueId c1 = Op(g, OpKind::kRelu, {Int8Conv(g, x, 6, 20)});
  ValueId s = g.AddConstant("s", *runtime::NDArray::Empty({}, kF32));
  ValueId z = g.AddConstant("z", *runtime::NDArray::Empty({}, u8));
  ValueId q = Op(g, OpKind::kQuantize, {c1, s, z});
  g.AddOutput("y", Int8Conv(g, q, 20, 8));
  Graph out = Rewritten(std::move(g));
  std::map<std::string, int> ops = OpCounts(out);
  EXPECT_EQ(ops["conv2d_int8_nchwc"], 2);
  EXPECT_EQ(ops["conv2d_int8"], 0);
  // x enters in blocks of 8 (6 channels rounded up to whole groups of four, at most a vector);
  // the quantize stays blocked, so the second conv reads the first one's blocks of 8 lanes.
  EXPECT_EQ(ops["to_nchwc"], 1);
  EXPECT_EQ(ops["from_nchwc"], 1);
  for (const Node& n : out.nodes()) {
    if (n.op == OpKind::kQuantize) {
      EXPECT_EQ(out.value(n.outputs[0]).type.shape, (std::vector<int64_t>{1, 3, 8, 8, 8}));
    }
    if (n.op == OpKind::kConv2dInt8Nchwc) {
      // [OB][CB][KH][KW][ic/4][L][4]
      const std::vector<int64_t>& w = out.value(n.inputs[1]).type.shape;
      ASSERT_EQ(w.size(), 7u);
      EXPECT_EQ(w[5], 8);
      EXPECT_EQ(w[6], 4);
    }
  }
}

}  // namespace
}  // namespace tunefarm::graph
