// QDQ models exported by PyTorch (scripts/export-models.py: torchvision's quantizable ResNet-18
// and MobileNet-v2, and a three-layer MLP, fused, fake-quantized per channel and calibrated, at
// opset 13) import and build, and their outputs match PyTorch's fake-quant outputs within 5 % of
// the largest logit with the same top-1 class for every input of a batch of 1 and a batch of 4.
// Their convs and the MLP's Linear layers, whose inputs are quantized, run as int8 kernels. And
// PyTorch's float ResNet-18, quantized here (driver/model_quantizer.h) on a batch of 4 images,
// builds 21 int8 kernels whose output stays within 5 % of PyTorch's on another image.
#include <algorithm>
#include <cmath>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sstream>

#include "driver/array_file.h"
#include "driver/model_executor.h"
#include "driver/model_quantizer.h"
#include "tests/testing/exported_model_test.h"
#include "tests/testing/pytorch_models.h"
#include "tools/commands/model_build_command.h"
#include "tools/commands/model_run_command.h"

namespace tunefarm::tools {
namespace {

// The kernels of a `model build` output scheduled by an int8 template.
int Int8Kernels(const std::string& build_output) {
  int n = 0;
  for (const char* tmpl : {"dense_int8 template", "conv2d_int8 template"}) {
    for (size_t at = build_output.find(tmpl); at != std::string::npos;
         at = build_output.find(tmpl, at + 1)) {
      ++n;
    }
  }
  return n;
}

struct QuantizedModel {
  const char* name;
  const char* sample;  // an input's dimensions after the batch
  int int8_kernels;    // of the dense_int8 and conv2d_int8 templates, in the built module
};

class QuantizedModelsTest : public fixtures::ExportedModelTest<QuantizedModel> {
 protected:
  void ExpectMatches(const std::string& variant, int batch) {
    const char* name = GetParam().name;
    ModelBuildOptions build;
    build.file = File(".onnx");
    build.output = ::testing::TempDir() + name + variant + ".so";
    ASSERT_TRUE(driver::ParseInputShape("input=" + std::to_string(batch) + "," + GetParam().sample,
                                        &build.compile.input_shapes)
                    .ok());
    std::ostringstream out, err;
    ASSERT_EQ(RunModelBuildCommand(build, out, err), 0) << out.str() << err.str();
    const int int8 = Int8Kernels(out.str());
    EXPECT_EQ(int8, GetParam().int8_kernels) << out.str();
    absl::StatusOr<runtime::NDArray> input = driver::ReadArrayFile(File(variant + ".input.npy"));
    absl::StatusOr<runtime::NDArray> want = driver::ReadArrayFile(File(variant + ".output.npy"));
    ASSERT_TRUE(input.ok() && want.ok());
    absl::StatusOr<std::unique_ptr<driver::ModelExecutor>> exec =
        driver::OpenModelModule(build.output);
    ASSERT_TRUE(exec.ok()) << exec.status();
    ASSERT_TRUE((*exec)->SetInput(0, input->data(), input->NumBytes()).ok());
    ASSERT_TRUE((*exec)->Run().ok());
    absl::StatusOr<const DLTensor*> got = (*exec)->Output(0);
    ASSERT_TRUE(got.ok()) << got.status();
    const auto* g = static_cast<const float*>((*got)->data);
    const auto* w = static_cast<const float*>(want->data());
    const int64_t classes = want->shape()[1];
    ASSERT_EQ((*got)->shape[0], batch);
    ASSERT_EQ((*got)->shape[1], classes);
    double largest = 0, worst = 0;
    for (int64_t i = 0; i < batch * classes; ++i) {
      largest = std::max(largest, std::fabs(static_cast<double>(w[i])));
      worst = std::max(worst, std::fabs(static_cast<double>(g[i]) - w[i]));
    }
    EXPECT_LE(worst, 0.05 * largest) << name << variant << ": largest logit " << largest;
    for (int b = 0; b < batch; ++b) {
      const float* gr = g + b * classes;
      const float* wr = w + b * classes;
      EXPECT_EQ(std::max_element(gr, gr + classes) - gr, std::max_element(wr, wr + classes) - wr)
          << name << variant << " image " << b;
    }
    std::remove(build.output.c_str());
  }
};

TEST_P(QuantizedModelsTest, FakeQuantOutputsWithinFivePercentAndTheSameTopOne) {
  ExpectMatches("", 1);
  ExpectMatches(".b4", 4);
}

// Every conv (groups 1) of the CNNs is int8; their depthwise convs and their classifiers (which
// read a float average: PyTorch does not fake-quantize the pooled activations) stay float.
INSTANTIATE_TEST_SUITE_P(Models, QuantizedModelsTest,
                         ::testing::Values(QuantizedModel{"resnet18_qdq", "3,224,224", 20},
                                           QuantizedModel{"mobilenet_v2_qdq", "3,224,224", 35},
                                           QuantizedModel{"mlp_qdq", "1024", 3}),
                         [](const ::testing::TestParamInfo<QuantizedModel>& info) {
                           return std::string(info.param.name);
                         });

TEST(PostTrainingQuantizationTest, ResNet18QuantizedHereRunsInt8AndStaysCloseToPytorch) {
  const std::string dir = fixtures::ExportedPytorchModel("resnet18");
  if (dir.empty()) GTEST_SKIP() << "python3-torch/torchvision missing";
  driver::QuantizeModelOptions options;
  absl::StatusOr<runtime::NDArray> images = driver::ReadArrayFile(dir + "/resnet18.b4.input.npy");
  ASSERT_TRUE(images.ok()) << images.status();
  options.calibration.emplace_back();
  options.calibration.back().emplace("input", *std::move(images));
  options.compile.input_shapes["input"] = {4, 3, 224, 224};
  const std::string int8 = ::testing::TempDir() + "/resnet18_ptq.onnx";
  absl::StatusOr<driver::QuantizeModelReport> report =
      driver::QuantizeModel(dir + "/resnet18.onnx", int8, options);
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_EQ(report->summary.ops, 21);  // 20 convs and the classifier
  EXPECT_EQ(report->top1_kept, report->top1_rows);

  ModelBuildOptions build;
  build.file = int8;
  build.output = ::testing::TempDir() + "/resnet18_ptq.so";
  ASSERT_TRUE(driver::ParseInputShape("input=1,3,224,224", &build.compile.input_shapes).ok());
  std::ostringstream out, err;
  ASSERT_EQ(RunModelBuildCommand(build, out, err), 0) << out.str() << err.str();
  const int kernels = Int8Kernels(out.str());
  EXPECT_EQ(kernels, 21) << out.str();
  ModelRunOptions run;
  run.model = build.output;
  run.inputs = {"input=" + dir + "/resnet18.input.npy"};
  run.expect = {dir + "/resnet18.output.npy"};
  run.rtol = 0.05;
  std::ostringstream run_out, run_err;
  EXPECT_EQ(RunModelRunCommand(run, run_out, run_err), 0) << run_out.str() << run_err.str();
  std::remove(int8.c_str());
  std::remove(build.output.c_str());
}

}  // namespace
}  // namespace tunefarm::tools
