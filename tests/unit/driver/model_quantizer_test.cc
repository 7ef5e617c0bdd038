// Post-training quantization end to end on a small CNN: calibrated on random images, the QDQ
// model it writes builds with int8 kernels for every conv and the classifier, and its outputs stay
// within 3 % of the float model's; the percentile method narrows the ranges an outlier stretches;
// bad calibration inputs are refused naming the input.
#include "driver/model_quantizer.h"

#include <filesystem>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <random>
#include <unistd.h>

#include "tests/testing/files.h"
#include "tests/unit/compiler/frontend/onnx/onnx_model_builder.h"

namespace tunefarm::driver {
namespace {

using ::testing::HasSubstr;
using B = frontend::onnx::testing::OnnxModelBuilder;
namespace fs = std::filesystem;

// Random weights in [-0.5, 0.5).
void Randomize(::onnx::TensorProto* t, uint32_t seed) {
  std::mt19937 random(seed);
  std::uniform_real_distribution<float> u(-0.5f, 0.5f);
  for (int i = 0; i < t->float_data_size(); ++i) t->set_float_data(i, u(random));
}

// image [1,8,10,10] -> conv 3x3 (16) + relu -> conv 3x3 stride 2 (16) + relu -> pool -> fc 10.
std::string SmallCnn() {
  B b(13);
  b.Input("image", {1, 8, 10, 10});
  Randomize(b.FloatInit("w1", {16, 8, 3, 3}), 1);
  Randomize(b.FloatInit("b1", {16}), 2);
  Randomize(b.FloatInit("w2", {16, 16, 3, 3}), 3);
  Randomize(b.FloatInit("fc", {10, 16}), 4);
  Randomize(b.FloatInit("fc_b", {10}), 5);
  B::Ints(b.Node("Conv", {"image", "w1", "b1"}, {"c1"}), "pads", {1, 1, 1, 1});
  b.Node("Relu", {"c1"}, {"r1"});
  auto* c2 = b.Node("Conv", {"r1", "w2"}, {"c2"});
  B::Ints(c2, "pads", {1, 1, 1, 1});
  B::Ints(c2, "strides", {2, 2});
  b.Node("Relu", {"c2"}, {"r2"});
  b.Node("GlobalAveragePool", {"r2"}, {"p"});
  b.Node("Flatten", {"p"}, {"f"});
  B::Int(b.Node("Gemm", {"f", "fc", "fc_b"}, {"y"}), "transB", 1);
  b.Output("y");
  return fixtures::WriteTempFile("small_cnn.onnx", b.Bytes());
}

std::map<std::string, runtime::NDArray> Image(uint32_t seed, float outlier = 0) {
  runtime::NDArray a = *runtime::NDArray::Empty({1, 8, 10, 10}, DLDataType{kDLFloat, 32, 1});
  std::mt19937 random(seed);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  auto* v = static_cast<float*>(a.data());
  for (int64_t i = 0; i < a.NumElements(); ++i) v[i] = u(random);
  if (outlier != 0) v[17] = outlier;
  std::map<std::string, runtime::NDArray> sample;
  sample.emplace("image", std::move(a));
  return sample;
}

std::string Output(const std::string& name) {
  return ::testing::TempDir() + "/" + name + "_" + std::to_string(getpid()) + ".onnx";
}

TEST(ModelQuantizerTest, TheQdqModelBuildsInt8KernelsAndStaysCloseToTheFloatModel) {
  const std::string model = SmallCnn();
  QuantizeModelOptions options;
  for (uint32_t s = 0; s < 8; ++s) options.calibration.push_back(Image(s));
  const std::string out = Output("small_cnn_int8");
  absl::StatusOr<QuantizeModelReport> report = QuantizeModel(model, out, options);
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_EQ(report->summary.ops, 3);
  EXPECT_EQ(report->samples, 8);
  EXPECT_LT(report->max_relative_difference, 0.03);
  EXPECT_EQ(report->top1_rows, 8);
  EXPECT_GE(report->top1_kept, 7);
  absl::StatusOr<CompiledModel> built = CompileModel(out, {}, target::Target::Host());
  ASSERT_TRUE(built.ok()) << built.status();
  int conv = 0, dense = 0;
  for (const graph::GroupKernel& k : built->built.kernels) {
    conv += k.schedule.find("conv2d_int8 template") != std::string::npos;
    dense += k.schedule.find("dense_int8 template") != std::string::npos;
  }
  EXPECT_EQ(conv, 2);
  EXPECT_EQ(dense, 1);
  fs::remove(out);
}

TEST(ModelQuantizerTest, PercentileRangesIgnoreAnOutlierThatMinMaxKeeps) {
  const std::string model = SmallCnn();
  QuantizeModelOptions options;
  for (uint32_t s = 0; s < 4; ++s) options.calibration.push_back(Image(s, s == 0 ? 400.0f : 0));
  const std::string minmax = Output("outlier_minmax"), percentile = Output("outlier_percentile");
  absl::StatusOr<QuantizeModelReport> wide = QuantizeModel(model, minmax, options);
  options.method = CalibrationMethod::kPercentile;
  options.percentile = 99.9;
  absl::StatusOr<QuantizeModelReport> narrow = QuantizeModel(model, percentile, options);
  ASSERT_TRUE(wide.ok()) << wide.status();
  ASSERT_TRUE(narrow.ok()) << narrow.status();
  // The input's scale: 401/255 with the outlier, about 2/255 without.
  auto input_scale = [](const std::string& path) {
    std::optional<std::string> bytes = fixtures::ReadFile(path);
    ::onnx::ModelProto m;
    EXPECT_TRUE(bytes && m.ParseFromString(*bytes));
    for (const auto& t : m.graph().initializer()) {
      if (t.name() == "image_scale") return *reinterpret_cast<const float*>(t.raw_data().data());
    }
    return 0.0f;
  };
  EXPECT_NEAR(input_scale(minmax), 401.0f / 255, 0.01);
  EXPECT_LT(input_scale(percentile), 3.0f / 255);
  fs::remove(minmax);
  fs::remove(percentile);
}

TEST(ModelQuantizerTest, CalibrationInputsThatDoNotFitAreRefusedByName) {
  const std::string model = SmallCnn();
  QuantizeModelOptions options;
  EXPECT_THAT(std::string(QuantizeModel(model, Output("none"), options).status().message()),
              HasSubstr("no calibration inputs"));
  std::map<std::string, runtime::NDArray> wrong;
  wrong.emplace("image", *runtime::NDArray::Empty({1, 8, 10, 9}, DLDataType{kDLFloat, 32, 1}));
  options.calibration.push_back(std::move(wrong));
  EXPECT_THAT(std::string(QuantizeModel(model, Output("wrong"), options).status().message()),
              HasSubstr("calibration sample 1: input 'image' is [1,8,10,10] float32, the sample "
                        "holds [1,8,10,9] float32"));
  options.calibration.clear();
  options.calibration.emplace_back();
  EXPECT_THAT(std::string(QuantizeModel(model, Output("missing"), options).status().message()),
              HasSubstr("calibration sample 1 has no input 'image'"));
  options.calibration.clear();
  options.calibration.push_back(Image(1));
  options.method = CalibrationMethod::kPercentile;
  options.percentile = 20;
  EXPECT_THAT(std::string(QuantizeModel(model, Output("p"), options).status().message()),
              HasSubstr("percentile 20 must be above 50"));
}

}  // namespace
}  // namespace tunefarm::driver
