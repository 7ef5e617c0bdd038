// The matmul-as-gemm rewrite: a matmul by a constant matrix becomes reshape -> gemm -> reshape,
// taking a following bias add as the gemm's C, and computes the same values; a matmul of two
// activations, a batched weight or a bias that is not a constant vector stays as it is.
#include "compiler/graph/matmul_as_gemm.h"

#include <gtest/gtest.h>
#include <map>
#include <random>

#include "compiler/graph/op_evaluate.h"
#include "compiler/graph/verifier.h"
#include "tests/testing/dl_types.h"
#include "tests/unit/compiler/graph/test_op.h"

namespace tunefarm::graph {
namespace {

using fixtures::kF32;
using testing::Op;
using testing::OpCounts;

runtime::NDArray RandomArray(std::vector<int64_t> shape, uint32_t seed) {
  runtime::NDArray a = *runtime::NDArray::Empty(std::move(shape), kF32);
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(-1, 1);
  for (int64_t i = 0; i < a.NumElements(); ++i) static_cast<float*>(a.data())[i] = dist(rng);
  return a;
}

// The graph's one output for input `x`, node by node.
runtime::NDArray Evaluate(const Graph& g, const runtime::NDArray& x) {
  std::map<ValueId, runtime::NDArray> values;
  values.emplace(g.inputs()[0], *x.View(x.shape()));
  for (const Node& node : g.nodes()) {
    std::vector<const runtime::NDArray*> in;
    for (ValueId id : node.inputs) {
      const runtime::NDArray* c = g.ConstantData(id);
      in.push_back(c != nullptr ? c : &values.at(id));
    }
    absl::StatusOr<std::vector<runtime::NDArray>> out = EvaluateOp(node, in);
    EXPECT_TRUE(out.ok()) << out.status();
    if (!out.ok()) return {};
    for (size_t i = 0; i < out->size(); ++i) {
      values.emplace(node.outputs[i], std::move((*out)[i]));
    }
  }
  const runtime::NDArray& y = values.at(g.outputs()[0].value);
  return *y.View(y.shape());
}

// relu(x @ w + b) for x [2, 5, 8], w [8, 6].
Graph LinearLayer() {
  Graph g;
  ValueId x = g.AddInput("x", {kF32, {2, 5, 8}});
  ValueId w = g.AddConstant("w", RandomArray({8, 6}, 1));
  ValueId b = g.AddConstant("b", RandomArray({6}, 2));
  ValueId y = Op(g, OpKind::kAdd, {Op(g, OpKind::kMatMul, {x, w}), b});
  g.AddOutput("y", Op(g, OpKind::kRelu, {y}));
  return g;
}

TEST(MatmulAsGemmTest, ALinearLayerOnASequenceBecomesAGemmWithItsBias) {
  Graph g = LinearLayer();
  absl::StatusOr<Graph> out = RewriteMatmulAsGemm(LinearLayer());
  ASSERT_TRUE(out.ok()) << out.status();
  ASSERT_TRUE(VerifyGraph(*out).ok()) << VerifyGraph(*out);
  std::map<std::string, int> ops = OpCounts(*out);
  EXPECT_EQ(ops["gemm"], 1);
  EXPECT_EQ(ops["matmul"], 0);
  EXPECT_EQ(ops["add"], 0);
  EXPECT_EQ(out->value(out->outputs()[0].value).type.shape, (std::vector<int64_t>{2, 5, 6}));
  runtime::NDArray input = RandomArray({2, 5, 8}, 3);
  runtime::NDArray want = Evaluate(g, input), got = Evaluate(*out, input);
  ASSERT_EQ(got.shape(), want.shape());
  for (int64_t i = 0; i < want.NumElements(); ++i) {
    EXPECT_NEAR(static_cast<const float*>(got.data())[i], static_cast<const float*>(want.data())[i],
                1e-5);
  }
}

TEST(MatmulAsGemmTest, OtherMatmulsAndAddsStay) {
  Graph g;
  ValueId x = g.AddInput("x", {kF32, {3, 4}});
  ValueId z = g.AddInput("z", {kF32, {4, 4}});
  ValueId batched = g.AddConstant("wb", RandomArray({2, 4, 4}, 4));
  ValueId activations = Op(g, OpKind::kMatMul, {x, z});            // no constant weight
  ValueId three = Op(g, OpKind::kMatMul, {activations, batched});  // a batched weight
  g.AddOutput("y", Op(g, OpKind::kAdd, {three, three}));
  absl::StatusOr<Graph> out = RewriteMatmulAsGemm(std::move(g));
  ASSERT_TRUE(out.ok()) << out.status();
  std::map<std::string, int> ops = OpCounts(*out);
  EXPECT_EQ(ops["matmul"], 2);
  EXPECT_EQ(ops["gemm"], 0);
  // A constant weight with an add of a non-constant: the gemm, and the add kept.
  Graph h;
  ValueId hx = h.AddInput("x", {kF32, {3, 4}});
  ValueId r = h.AddInput("r", {kF32, {3, 5}});
  ValueId m = Op(h, OpKind::kMatMul, {hx, h.AddConstant("w", RandomArray({4, 5}, 5))});
  h.AddOutput("y", Op(h, OpKind::kAdd, {m, r}));
  absl::StatusOr<Graph> hout = RewriteMatmulAsGemm(std::move(h));
  ASSERT_TRUE(hout.ok()) << hout.status();
  EXPECT_EQ(OpCounts(*hout)["gemm"], 1);
  EXPECT_EQ(OpCounts(*hout)["add"], 1);
  EXPECT_TRUE(VerifyGraph(*hout).ok());
}

}  // namespace
}  // namespace tunefarm::graph
