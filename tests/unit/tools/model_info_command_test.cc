#include "tools/commands/model_info_command.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sstream>

#include "tests/testing/files.h"
#include "tests/unit/compiler/frontend/onnx/conv_gemm_model.h"
#include "tests/unit/compiler/frontend/onnx/onnx_model_builder.h"

namespace tunefarm::tools {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using B = frontend::onnx::testing::OnnxModelBuilder;

TEST(ModelInfoCommandTest, PrintsInputsOutputsOpsParametersAndFlops) {
  const std::string path = frontend::onnx::testing::WriteConvGemmModel("tiny.onnx");
  std::ostringstream out, err;
  ASSERT_EQ(RunModelInfoCommand({path, {}}, out, err), 0) << err.str();
  EXPECT_EQ(err.str(), "");
  EXPECT_THAT(out.str(), HasSubstr("inputs:\n  image: float32[1,3,8,8]\n"));
  EXPECT_THAT(out.str(), HasSubstr("outputs:\n  logits: float32[1,10]\n"));
  EXPECT_THAT(out.str(), HasSubstr("ops: 4 nodes\n"));
  EXPECT_THAT(out.str(), HasSubstr("  conv2d 1\n"));
  // 4*3*3*3 + 10*256 = 2668 parameters of 4 bytes.
  EXPECT_THAT(out.str(), HasSubstr("parameters: 2668 (2.67 k), 10672 bytes"));
  // conv: 2 * (4*8*8) * (3*3*3) = 13824; gemm: 2 * 10 * 256 = 5120.
  EXPECT_THAT(out.str(), HasSubstr("flops: 18944 ("));
  // After the passes the conv is blocked (the image enters NCHW[c]c and leaves it before the
  // flatten) and the gemm reads its packed weight as a matmul: four kernels. The build applies
  // records to the conv only: its task (direct, and Winograd for a 3x3 stride-1 conv) is listed
  // as a tuning task, the matmul apart, as not configured.
  EXPECT_THAT(out.str(), ::testing::ContainsRegex("fused groups: 4 kernels, [12] tuning tasks\n"));
  // Its task fixes its layout's blocks: the image's 3 channels in one block, the 4 filters in
  // one vector.
  EXPECT_THAT(out.str(),
              ::testing::ContainsRegex("  group 1 \\[conv2d_nchwc\\+relu\\] task "
                                       "conv2d_nchwc:1,3,8,8,4,3,3,1,1,3,[0-9]+:float32\n"));
  EXPECT_THAT(out.str(), HasSubstr("  group 2 [from_nchwc+flatten]\n"));
  EXPECT_THAT(out.str(), HasSubstr("not configured by records yet (the build runs their default "
                                   "schedules):\n  matmul:1,10,256:float32 (1 groups)\n"));
  const std::string tuning = out.str().substr(out.str().find("tuning tasks (what"));
  EXPECT_THAT(tuning.substr(0, tuning.find("not configured")), Not(HasSubstr("matmul")));
}

TEST(ModelInfoCommandTest, NamedDimensionsTakeTheirShapeFromTheOptions) {
  B b(13);
  auto* shape = b.Input("image", {})->mutable_type()->mutable_tensor_type()->mutable_shape();
  shape->add_dim()->set_dim_param("batch");
  for (int64_t d : {3, 8, 8}) shape->add_dim()->set_dim_value(d);
  b.Node("Relu", {"image"}, {"y"});
  b.Output("y");
  std::string path = fixtures::WriteTempFile("dynamic.onnx", b.Bytes());
  std::ostringstream out, err;
  EXPECT_EQ(RunModelInfoCommand({path, {}}, out, err), 1);
  EXPECT_THAT(err.str(), HasSubstr("give its shape"));
  std::ostringstream out2, err2;
  ASSERT_EQ(RunModelInfoCommand({path, {{"image", {4, 3, 8, 8}}}}, out2, err2), 0) << err2.str();
  EXPECT_THAT(out2.str(), HasSubstr("image: float32[4,3,8,8]"));
}

TEST(ModelInfoCommandTest, BadFileIsOneLineAndExitCode1) {
  std::string path = fixtures::WriteTempFile("bad.onnx", "not a model");
  std::ostringstream out, err;
  EXPECT_EQ(RunModelInfoCommand({path, {}}, out, err), 1);
  EXPECT_EQ(out.str(), "");
  EXPECT_EQ(err.str(), "tunefarm: " + path +
                           ": not an ONNX model: the file does not parse as one (truncated, or "
                           "another format)\n");
  std::ostringstream out2, err2;
  EXPECT_EQ(RunModelInfoCommand({"/nonexistent.onnx", {}}, out2, err2), 1);
  EXPECT_THAT(err2.str(), HasSubstr("tunefarm: cannot open /nonexistent.onnx"));
}

}  // namespace
}  // namespace tunefarm::tools
