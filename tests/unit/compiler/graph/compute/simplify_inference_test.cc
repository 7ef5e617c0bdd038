// Inference simplification: a batch norm with constant statistics becomes a multiply and an add by
// per-channel constants that compute what the batch norm did; one with a computed statistic stays.
#include "compiler/graph/simplify_inference.h"

#include <gtest/gtest.h>

#include "tests/testing/dl_types.h"
#include "tests/unit/compiler/graph/compute/compute_test_util.h"

namespace tunefarm::graph {
namespace {

using testing::F;
using testing::Random;

using fixtures::kF32;

TEST(SimplifyInferenceTest, ABatchNormBecomesAScaleAndAShiftWithTheSameResult) {
  Graph g;
  ValueId x = g.AddInput("x", {kF32, {2, 4, 3, 3}});
  std::vector<ValueId> stats;
  for (int i = 0; i < 4; ++i) {
    stats.push_back(g.AddConstant("s" + std::to_string(i), Random({4}, i, 0.5f, 1.5f)));
  }
  ValueId y = (*g.AddOp(OpKind::kBatchNorm, "bn", {{"epsilon", 1e-3}},
                        {x, stats[0], stats[1], stats[2], stats[3]}, {"y"}))[0];
  g.AddOutput("y", y);
  const runtime::NDArray input = Random({2, 4, 3, 3}, 9);
  std::vector<const runtime::NDArray*> bn_inputs = {&input};
  for (ValueId s : stats) bn_inputs.push_back(g.ConstantData(s));
  std::vector<runtime::NDArray> want = *EvaluateOp(g.nodes()[0], bn_inputs);

  absl::StatusOr<Graph> s = SimplifyInference(std::move(g));
  ASSERT_TRUE(s.ok()) << s.status();
  ASSERT_EQ(s->nodes().size(), 2u);
  EXPECT_EQ(s->nodes()[0].op, OpKind::kMul);
  EXPECT_EQ(s->nodes()[1].op, OpKind::kAdd);
  EXPECT_EQ(s->value(s->outputs()[0].value).name, "y");
  const runtime::NDArray* scale = s->ConstantData(s->nodes()[0].inputs[1]);
  const runtime::NDArray* shift = s->ConstantData(s->nodes()[1].inputs[1]);
  ASSERT_NE(scale, nullptr);
  ASSERT_NE(shift, nullptr);
  EXPECT_EQ(scale->shape(), (std::vector<int64_t>{4, 1, 1}));
  runtime::NDArray scaled = std::move((*EvaluateOp(s->nodes()[0], {&input, scale}))[0]);
  runtime::NDArray got = std::move((*EvaluateOp(s->nodes()[1], {&scaled, shift}))[0]);
  std::vector<float> expected(F(want[0]), F(want[0]) + want[0].NumElements());
  EXPECT_TRUE(testing::Close(got, {2, 4, 3, 3}, expected, 1e-5, 1e-5));
}

TEST(SimplifyInferenceTest, ABatchNormWithAComputedStatisticStays) {
  Graph g;
  ValueId x = g.AddInput("x", {kF32, {1, 2, 2, 2}});
  ValueId gamma = g.AddInput("gamma", {kF32, {2}});
  std::vector<ValueId> rest;
  for (int i = 0; i < 3; ++i) rest.push_back(g.AddConstant("", Random({2}, i, 0.5f, 1.0f)));
  ValueId y = (*g.AddOp(OpKind::kBatchNorm, "bn", {}, {x, gamma, rest[0], rest[1], rest[2]}))[0];
  g.AddOutput("y", y);
  absl::StatusOr<Graph> s = SimplifyInference(std::move(g));
  ASSERT_TRUE(s.ok()) << s.status();
  ASSERT_EQ(s->nodes().size(), 1u);
  EXPECT_EQ(s->nodes()[0].op, OpKind::kBatchNorm);
}

}  // namespace
}  // namespace tunefarm::graph
