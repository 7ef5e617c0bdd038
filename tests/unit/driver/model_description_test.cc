// DescribeModel: what `model info` shows, as typed values.
#include "driver/model_description.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/testing/files.h"
#include "tests/unit/compiler/frontend/onnx/conv_gemm_model.h"

namespace tunefarm::driver {
namespace {

using ::testing::HasSubstr;

std::string ConvGemm() { return frontend::onnx::testing::WriteConvGemmModel("describe.onnx"); }

TEST(ModelDescriptionTest, CountsTheImportedGraphAndSplitsTheTasksByWhatTheBuildConfigures) {
  absl::StatusOr<ModelDescription> d = DescribeModel(ConvGemm(), {});
  ASSERT_TRUE(d.ok()) << d.status();
  ASSERT_EQ(d->inputs.size(), 1u);
  EXPECT_EQ(d->inputs[0].name, "image");
  EXPECT_EQ(d->inputs[0].type, "float32[1,3,8,8]");
  EXPECT_EQ(d->outputs[0].type, "float32[1,10]");
  EXPECT_EQ(d->nodes, 4);
  EXPECT_EQ(d->parameters, 4 * 3 * 3 * 3 + 10 * 256);
  EXPECT_EQ(d->parameter_bytes, 4 * d->parameters);
  // conv: 2 * (4*8*8) * (3*3*3); gemm: 2 * 10 * 256.
  EXPECT_EQ(d->flops, 13824 + 5120);
  // The blocked conv's task(s) are tuned; the matmul (the gemm after the passes) is not
  // configured by records, so it is listed apart and never tuned.
  ASSERT_FALSE(d->tasks.empty());
  for (const tuner::ModelTask& t : d->tasks) {
    EXPECT_THAT(t.workload.Key(), HasSubstr("conv2d")) << t.workload.Key();
  }
  ASSERT_EQ(d->not_configured.size(), 1u);
  EXPECT_EQ(d->not_configured[0].workload.Key(), "matmul:1,10,256:float32");
  int with_task = 0;
  for (const ModelDescription::Group& g : d->groups) with_task += g.workload_key.empty() ? 0 : 1;
  EXPECT_GE(with_task, 2) << "the conv's and the matmul's groups name their workloads";
}

TEST(ModelDescriptionTest, AnUnreadableFileIsAnErrorNamingIt) {
  const std::string path = fixtures::WriteTempFile("describe_bad.onnx", "not a model");
  absl::StatusOr<ModelDescription> d = DescribeModel(path, {});
  ASSERT_FALSE(d.ok());
  EXPECT_THAT(d.status().message(), HasSubstr(path));
  EXPECT_FALSE(DescribeModel("/nonexistent/model.onnx", {}).ok());
}

}  // namespace
}  // namespace tunefarm::driver
