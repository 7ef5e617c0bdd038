// Constant folding: nodes whose inputs are all constants are evaluated at build time (chains of
// them too); a node that reads an input, a graph output and a broadcast that would blow a small
// constant up are left to the kernels.
#include "compiler/graph/constant_folding.h"

#include <gtest/gtest.h>

#include "compiler/graph/pack_weights.h"
#include "tests/testing/dl_types.h"
#include "tests/unit/compiler/graph/compute/compute_test_util.h"

namespace tunefarm::graph {
namespace {

using testing::F;
using testing::Random;

using fixtures::kF32;

TEST(ConstantFoldingTest, AChainOfConstantNodesBecomesOneConstant) {
  Graph g;
  ValueId x = g.AddInput("x", {kF32, {3, 2}});
  ValueId w = g.AddConstant("w", Random({2, 3}, 1));
  ValueId t = (*g.AddOp(OpKind::kTranspose, "t", {{"perm", std::vector<int64_t>{1, 0}}}, {w}))[0];
  ValueId r = (*g.AddOp(OpKind::kRelu, "r", {}, {t}))[0];
  g.AddOutput("y", (*g.AddOp(OpKind::kAdd, "add", {}, {x, r}))[0]);
  absl::StatusOr<Graph> f = FoldConstants(std::move(g));
  ASSERT_TRUE(f.ok()) << f.status();
  ASSERT_EQ(f->nodes().size(), 1u);
  EXPECT_EQ(f->nodes()[0].op, OpKind::kAdd);
  const runtime::NDArray* folded = f->ConstantData(f->nodes()[0].inputs[1]);
  ASSERT_NE(folded, nullptr);
  ASSERT_EQ(folded->shape(), (std::vector<int64_t>{3, 2}));
  const runtime::NDArray source = Random({2, 3}, 1);
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 2; ++j) {
      EXPECT_FLOAT_EQ(F(*folded)[i * 2 + j], std::max(0.0f, F(source)[j * 3 + i]));
    }
  }
}

TEST(ConstantFoldingTest, GraphOutputsAndGrowingBroadcastsStayComputed) {
  Graph g;
  ValueId small = g.AddConstant("s", Random({1}, 2));
  ValueId big = g.AddConstant("b", Random({1024, 1024}, 3));  // 4 MiB
  ValueId wide = g.AddConstant("wide", Random({1024, 1, 1}, 4));
  // [1024, 1024, 1024] floats from 4 MiB of inputs: 4 GiB, far past the growth bound.
  ValueId blown = (*g.AddOp(OpKind::kAdd, "blow_up", {}, {wide, big}))[0];
  ValueId out = (*g.AddOp(OpKind::kRelu, "out", {}, {small}))[0];
  g.AddOutput("blown", blown);
  g.AddOutput("out", out);
  absl::StatusOr<Graph> f = FoldConstants(std::move(g));
  ASSERT_TRUE(f.ok()) << f.status();
  EXPECT_EQ(f->nodes().size(), 2u);
}

TEST(ConstantFoldingTest, PackedGemmWeightsAreTransposedOnceAtBuildTime) {
  Graph g;
  ValueId x = g.AddInput("x", {kF32, {2, 3}});
  ValueId w = g.AddConstant("w", Random({4, 3}, 5));
  g.AddOutput("y", (*g.AddOp(OpKind::kGemm, "fc", {{"trans_b", int64_t{1}}}, {x, w}))[0]);
  absl::StatusOr<Graph> packed = PackWeights(std::move(g));
  ASSERT_TRUE(packed.ok()) << packed.status();
  ASSERT_EQ(packed->nodes().size(), 2u);  // transpose, gemm
  absl::StatusOr<Graph> f = FoldConstants(*std::move(packed));
  ASSERT_TRUE(f.ok()) << f.status();
  ASSERT_EQ(f->nodes().size(), 1u);
  EXPECT_EQ(*f->nodes()[0].attrs.Int("trans_b", -1), 0);
  EXPECT_EQ(f->ConstantData(f->nodes()[0].inputs[1])->shape(), (std::vector<int64_t>{3, 4}));
}

TEST(ConstantFoldingTest, AColumnBlockPacksAGemmWeightAsStreamsOfColumns) {
  Graph g;
  ValueId x = g.AddInput("x", {kF32, {1, 3}});
  ValueId w = g.AddConstant("w", Random({8, 3}, 5));  // [N][K], read transposed
  g.AddOutput("y", (*g.AddOp(OpKind::kGemm, "fc", {{"trans_b", int64_t{1}}}, {x, w}))[0]);
  absl::StatusOr<Graph> packed = PackWeights(std::move(g), /*column_block=*/4);
  ASSERT_TRUE(packed.ok()) << packed.status();
  ASSERT_EQ(packed->nodes().size(), 2u);
  EXPECT_EQ(packed->nodes()[0].op, OpKind::kPackGemmWeight);
  absl::StatusOr<Graph> f = FoldConstants(*std::move(packed));
  ASSERT_TRUE(f.ok()) << f.status();
  ASSERT_EQ(f->nodes().size(), 1u);
  const Node& fc = f->nodes()[0];
  EXPECT_EQ(*fc.attrs.Int("trans_b", -1), 0);
  EXPECT_EQ(*fc.attrs.Int("b_block", -1), 4);
  const runtime::NDArray* data = f->ConstantData(fc.inputs[1]);
  ASSERT_EQ(data->shape(), (std::vector<int64_t>{2, 3, 4}));
  // [nb][k][j] holds W[nb * 4 + j][k].
  const runtime::NDArray source = Random({8, 3}, 5);
  for (int nb = 0; nb < 2; ++nb) {
    for (int k = 0; k < 3; ++k) {
      for (int j = 0; j < 4; ++j) {
        EXPECT_FLOAT_EQ(F(*data)[(nb * 3 + k) * 4 + j], F(source)[(nb * 4 + j) * 3 + k]);
      }
    }
  }
  // Columns that are not whole blocks keep the transpose.
  Graph h;
  ValueId hx = h.AddInput("x", {kF32, {1, 3}});
  ValueId hw = h.AddConstant("w", Random({6, 3}, 5));
  h.AddOutput("y", (*h.AddOp(OpKind::kGemm, "fc", {{"trans_b", int64_t{1}}}, {hx, hw}))[0]);
  absl::StatusOr<Graph> ragged = PackWeights(std::move(h), 4);
  ASSERT_TRUE(ragged.ok()) << ragged.status();
  EXPECT_EQ(ragged->nodes()[0].op, OpKind::kTranspose);
}

}  // namespace
}  // namespace tunefarm::graph
