// Scale folding: a conv's per-channel multiply and add (a batch norm after simplify_inference) fold
// into its weights and bias with the same result; a conv whose output has another reader, or a
// scale that is not per channel, is left alone.
#include "compiler/graph/fold_scales.h"

#include <gtest/gtest.h>
#include <optional>

#include "tests/testing/dl_types.h"
#include "tests/unit/compiler/graph/compute/compute_test_util.h"
#include "tests/unit/compiler/graph/test_op.h"

namespace tunefarm::graph {
namespace {

using testing::Op;

using testing::F;
using testing::Random;

using fixtures::kF32;

// Evaluates the graph's nodes in order on `x` and returns its first output.
runtime::NDArray Evaluate(const Graph& g, const runtime::NDArray& x) {
  std::vector<std::optional<runtime::NDArray>> values(g.values().size());
  auto value = [&](ValueId id) -> const runtime::NDArray* {
    if (const runtime::NDArray* c = g.ConstantData(id)) return c;
    if (id == g.inputs()[0]) return &x;
    return &*values[id];
  };
  for (const Node& n : g.nodes()) {
    std::vector<const runtime::NDArray*> in;
    for (ValueId id : n.inputs) in.push_back(value(id));
    std::vector<runtime::NDArray> out = *EvaluateOp(n, in);
    for (size_t i = 0; i < out.size(); ++i) values[n.outputs[i]] = std::move(out[i]);
  }
  const runtime::NDArray* y = value(g.outputs()[0].value);
  return *y->View(y->shape());
}

TEST(FoldScalesTest, ScaleAndShiftFoldIntoTheConvWithTheSameResult) {
  for (bool with_bias : {false, true}) {
    Graph g;
    ValueId x = g.AddInput("x", {kF32, {1, 3, 6, 6}});
    std::vector<ValueId> conv_in = {x, g.AddConstant("w", Random({4, 3, 3, 3}, 1))};
    if (with_bias) conv_in.push_back(g.AddConstant("b", Random({4}, 2)));
    ValueId c = Op(g, OpKind::kConv2d, conv_in, {{"pads", std::vector<int64_t>{1, 1, 1, 1}}});
    ValueId m = Op(g, OpKind::kMul, {g.AddConstant("s", Random({4, 1, 1}, 3)), c});
    ValueId a = Op(g, OpKind::kAdd, {m, g.AddConstant("t", Random({1, 4, 1, 1}, 4))});
    g.AddOutput("y", Op(g, OpKind::kRelu, {a}));
    const runtime::NDArray input = Random({1, 3, 6, 6}, 5);
    const runtime::NDArray want = Evaluate(g, input);
    absl::StatusOr<Graph> f = FoldScales(std::move(g));
    ASSERT_TRUE(f.ok()) << f.status();
    ASSERT_EQ(f->nodes().size(), 2u);
    EXPECT_EQ(f->nodes()[0].op, OpKind::kConv2d);
    EXPECT_EQ(f->nodes()[0].inputs.size(), 3u);
    const runtime::NDArray got = Evaluate(*f, input);
    std::vector<float> expected(F(want), F(want) + want.NumElements());
    EXPECT_TRUE(testing::Close(got, {1, 4, 6, 6}, expected, 1e-5, 1e-5));
  }
}

TEST(FoldScalesTest, AConvReadElsewhereOrAScaleNotPerChannelStays) {
  Graph g;
  ValueId x = g.AddInput("x", {kF32, {1, 2, 4, 4}});
  ValueId c = Op(g, OpKind::kConv2d, {x, g.AddConstant("w", Random({2, 2, 1, 1}, 1))});
  ValueId m = Op(g, OpKind::kMul, {c, g.AddConstant("s", Random({2, 1, 1}, 2))});
  g.AddOutput("scaled", m);
  g.AddOutput("raw", c);  // a second reader of the conv's output
  ValueId c2 = Op(g, OpKind::kConv2d, {x, g.AddConstant("w2", Random({2, 2, 1, 1}, 3))});
  g.AddOutput("by_column", Op(g, OpKind::kMul, {c2, g.AddConstant("k", Random({4}, 4))}));
  absl::StatusOr<Graph> f = FoldScales(std::move(g));
  ASSERT_TRUE(f.ok()) << f.status();
  EXPECT_EQ(f->nodes().size(), 4u);
}

}  // namespace
}  // namespace tunefarm::graph
