// Real models against PyTorch: torchvision's ResNet-18 and MobileNet-v2 with random weights and
// batch-norm statistics, exported to ONNX by Debian's python3-torch (scripts/export-models.py,
// which also writes PyTorch's outputs for random inputs). Each is built into a module file and run
// by the graph runtime at 1 and 2 threads, and built from the .onnx again for batch 4 and a
// 160x224 input; every output must be within 1e-4 of the output's largest magnitude.
#include <cstdlib>
#include <filesystem>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sstream>
#include <unistd.h>

#include "tests/testing/exported_model_test.h"
#include "tools/commands/model_build_command.h"
#include "tools/commands/model_run_command.h"

namespace tunefarm::tools {
namespace {

using ::testing::HasSubstr;
namespace fs = std::filesystem;

class PytorchModelsTest : public fixtures::ExportedModelTest<std::string> {
 protected:
  // Runs `model` on the reference input of `variant` and checks the output.
  void ExpectMatches(const std::string& model, const std::string& variant, int threads,
                     const std::string& input_shape = "") {
    ModelRunOptions run;
    run.model = model;
    run.inputs = {"input=" + File(variant + ".input.npy")};
    run.expect = {File(variant + ".output.npy")};
    run.threads = threads;
    if (!input_shape.empty()) {
      ASSERT_TRUE(driver::ParseInputShape(input_shape, &run.compile.input_shapes).ok());
    }
    std::ostringstream out, err;
    EXPECT_EQ(RunModelRunCommand(run, out, err), 0)
        << GetParam() << variant << " at " << threads << " threads:\n"
        << out.str() << err.str();
    EXPECT_THAT(out.str(), HasSubstr("max_abs_err="));
  }
};

TEST_P(PytorchModelsTest, TheExportedModuleMatchesPytorchAtOneAndTwoThreads) {
  ModelBuildOptions build;
  build.file = File(".onnx");
  build.output = ::testing::TempDir() + GetParam() + ".so";  // the model's folder is shared
  ASSERT_TRUE(driver::ParseInputShape("input=1,3,224,224", &build.compile.input_shapes).ok());
  std::ostringstream out, err;
  ASSERT_EQ(RunModelBuildCommand(build, out, err), 0) << err.str();
  EXPECT_THAT(out.str(), HasSubstr("conv2d_nchwc template"));
  for (int threads : {1, 2}) ExpectMatches(build.output, "", threads);
}

TEST_P(PytorchModelsTest, BatchFourAndANonSquareInputMatchPytorch) {
  ExpectMatches(File(".onnx"), ".b4", 2, "input=4,3,224,224");
  ExpectMatches(File(".onnx"), ".wide", 2, "input=1,3,160,224");
}

INSTANTIATE_TEST_SUITE_P(Models, PytorchModelsTest, ::testing::Values("resnet18", "mobilenet_v2"));

}  // namespace
}  // namespace tunefarm::tools
