// The graph pass runner and the clean-up passes: duplicates and dead nodes go (with the constants
// only they read), passes can be switched off by name, and each pass's result is verified.
#include "compiler/graph/graph_pass.h"

#include <gtest/gtest.h>

#include "compiler/graph/common_subexpression.h"
#include "compiler/graph/dead_code.h"
#include "compiler/graph/graph_pipeline.h"
#include "compiler/topi/cpu_info.h"
#include "tests/testing/dl_types.h"
#include "tests/unit/compiler/graph/test_op.h"

namespace tunefarm::graph {
namespace {

using fixtures::kF32;

using testing::Op;

TEST(GraphPassTest, DuplicatesAreComputedOnce) {
  Graph g;
  ValueId x = g.AddInput("x", {kF32, {4}});
  ValueId one_a = g.AddConstant("a", *runtime::NDArray::Empty({4}, kF32));
  ValueId one_b = g.AddConstant("b", *runtime::NDArray::Empty({4}, kF32));  // equal bytes
  ValueId left = Op(g, OpKind::kAdd, {Op(g, OpKind::kRelu, {x}), one_a});
  ValueId right = Op(g, OpKind::kAdd, {Op(g, OpKind::kRelu, {x}), one_b});
  g.AddOutput("y", Op(g, OpKind::kMul, {left, right}));
  absl::StatusOr<Graph> cse = EliminateCommonSubexpressions(std::move(g));
  ASSERT_TRUE(cse.ok()) << cse.status();
  ASSERT_EQ(cse->nodes().size(), 3u);  // relu, add, mul
  EXPECT_EQ(cse->nodes()[2].inputs[0], cse->nodes()[2].inputs[1]);
  EXPECT_EQ(cse->constants().size(), 1u);
}

TEST(GraphPassTest, DeadNodesAndTheirConstantsGo) {
  Graph g;
  ValueId x = g.AddInput("x", {kF32, {4}});
  ValueId unused_input = g.AddInput("unused", {kF32, {4}});
  ValueId w = g.AddConstant("only_dead_reads_me", *runtime::NDArray::Empty({4}, kF32));
  Op(g, OpKind::kMul, {Op(g, OpKind::kExp, {x}), w});  // nobody reads it
  g.AddOutput("y", Op(g, OpKind::kRelu, {x}));
  absl::StatusOr<Graph> live = EliminateDeadCode(std::move(g));
  ASSERT_TRUE(live.ok()) << live.status();
  EXPECT_EQ(live->nodes().size(), 1u);
  EXPECT_TRUE(live->constants().empty());
  EXPECT_EQ(live->inputs().size(), 2u) << "inputs are the model's signature";
  (void)unused_input;
}

TEST(GraphPassTest, TheRunnerSkipsTimesAndVerifies) {
  Graph g;
  ValueId x = g.AddInput("x", {kF32, {4}});
  g.AddOutput("y", Op(g, OpKind::kRelu, {Op(g, OpKind::kRelu, {x})}));
  std::vector<std::string> ran;
  passes::PassOptions options;
  options.disabled_passes = {"dead_code"};
  absl::StatusOr<Graph> out =
      RunGraphPasses(std::move(g), DefaultGraphPasses(KernelTarget::Host()), options,
                     [&](std::string_view pass, const Graph&, double ms) {
                       ran.emplace_back(pass);
                       EXPECT_GE(ms, 0);
                     });
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(ran, (std::vector<std::string>{
                     "simplify_inference", "fold_scales", "matmul_as_gemm", "quantized_dense",
                     "quantized_conv", "fold_quantized_weights", "pack_weights", "layout_rewrite",
                     "winograd", "constant_folding", "common_subexpression", "fuse_ops"}));

  options.disabled_passes = {"no_such_pass"};
  Graph h;
  h.AddOutput("x", h.AddInput("x", {kF32, {1}}));
  absl::StatusOr<Graph> refused =
      RunGraphPasses(std::move(h), DefaultGraphPasses(KernelTarget::Host()), options);
  EXPECT_EQ(refused.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(refused.status().message().find("common_subexpression"), std::string::npos);

  // A pass that leaves a broken graph is caught and named.
  GraphPass breaks{"breaks", [](Graph) -> absl::StatusOr<Graph> {
                     Graph bad;
                     bad.AddNode(Node{OpKind::kRelu, "r", {}, {7}, {}}, {{kF32, {2}}});
                     return bad;
                   }};
  Graph k;
  k.AddOutput("x", k.AddInput("x", {kF32, {1}}));
  absl::StatusOr<Graph> broken = RunGraphPasses(std::move(k), {breaks}, passes::PassOptions{});
  ASSERT_FALSE(broken.ok());
  EXPECT_NE(broken.status().message().find("breaks left an invalid graph"), std::string::npos);
}

}  // namespace
}  // namespace tunefarm::graph
