// `tunefarm model passes`: the graph after import and after each pass, then the fused groups; an
// unknown pass to disable is a usage error naming the passes.
#include "tools/commands/model_passes_command.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sstream>

#include "tests/testing/files.h"
#include "tests/unit/compiler/frontend/onnx/onnx_model_builder.h"

namespace tunefarm::tools {
namespace {

using ::testing::HasSubstr;
using B = frontend::onnx::testing::OnnxModelBuilder;

std::string TwoBranchModel() {
  B b(13);
  b.Input("image", {1, 3, 8, 8});
  b.FloatInit("w", {4, 3, 3, 3});
  auto* conv = b.Node("Conv", {"image", "w"}, {"c"});
  B::Ints(conv, "pads", {1, 1, 1, 1});
  b.Node("Relu", {"c"}, {"r1"});
  b.Node("Relu", {"c"}, {"r2"});  // the same as r1: CSE keeps one
  b.Node("Add", {"r1", "r2"}, {"y"});
  b.Output("y");
  return fixtures::WriteTempFile("two_branches.onnx", b.Bytes());
}

TEST(ModelPassesCommandTest, PrintsTheGraphAfterEachPassAndTheFusedGroups) {
  std::ostringstream out, err;
  ASSERT_EQ(RunModelPassesCommand({TwoBranchModel(), {}, {}}, out, err), 0) << err.str();
  const std::string text = out.str();
  EXPECT_THAT(text, HasSubstr("== imported\n"));
  // The conv goes blocked, its 4 filters in one block of 4 (no padding), its weight packed by
  // two nodes (split, transpose), which constant folding evaluates; the blocked value leaves
  // NCHW[c]c once, for the output.
  EXPECT_THAT(text, HasSubstr("== after layout_rewrite ("));
  EXPECT_THAT(text, HasSubstr(" ms, 8 nodes)"));
  EXPECT_THAT(text, HasSubstr("== after common_subexpression ("));
  EXPECT_THAT(text, HasSubstr("5 nodes)"));  // to_nchwc, conv2d_nchwc, relu, add, from_nchwc
  EXPECT_THAT(text, HasSubstr("== after fuse_ops ("));
  EXPECT_THAT(text, HasSubstr("[g0] "));
  EXPECT_THAT(text, HasSubstr("== 3 fused groups for 5 nodes\ngroup 0 [to_nchwc] -> %1\n"
                              "group 1 [conv2d_nchwc+relu+add] anchor %3 -> %5\n"));
}

TEST(ModelPassesCommandTest, WithoutTheLayoutRewriteTheConvStaysNchw) {
  std::ostringstream out, err;
  ASSERT_EQ(RunModelPassesCommand({TwoBranchModel(), {"layout_rewrite"}, {}}, out, err), 0)
      << err.str();
  const std::string text = out.str();
  EXPECT_THAT(text, HasSubstr("3 nodes)"));  // conv, relu, add
  EXPECT_THAT(text, HasSubstr("== 1 fused groups for 3 nodes\ngroup 0 [conv2d+relu+add]"));
}

TEST(ModelPassesCommandTest, AnUnknownPassIsAUsageError) {
  std::ostringstream out, err;
  EXPECT_EQ(RunModelPassesCommand({TwoBranchModel(), {"constant_fold_everything"}, {}}, out, err),
            2);
  EXPECT_THAT(err.str(), HasSubstr("unknown graph pass 'constant_fold_everything'"));
}

}  // namespace
}  // namespace tunefarm::tools
