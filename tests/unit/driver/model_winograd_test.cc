// A model's 3x3 stride-1 convs built with Winograd (the default pipeline) compute what the same
// model built with direct convs (--disable winograd) does, epilogues included (bias, relu and a
// residual add fused into the output transform).
#include <cmath>
#include <filesystem>
#include <gtest/gtest.h>
#include <unistd.h>

#include "driver/model_compiler.h"
#include "driver/model_executor.h"
#include "tests/testing/files.h"
#include "tests/unit/compiler/frontend/onnx/onnx_model_builder.h"

namespace tunefarm::driver {
namespace {

using B = frontend::onnx::testing::OnnxModelBuilder;

// Weights that differ per tap and channel, so that a transposed or misplaced transform shows.
void Vary(::onnx::TensorProto* t, float phase) {
  for (int i = 0; i < t->float_data_size(); ++i) {
    t->set_float_data(i, 0.1f * std::sin(phase + 0.71f * static_cast<float>(i)));
  }
}

// conv(3x3, bias) -> relu -> conv(3x3) + input -> relu, 32 channels of 16x16.
std::string ResidualBlock() {
  B b(13);
  b.Input("x", {1, 32, 16, 16});
  Vary(b.FloatInit("w1", {32, 32, 3, 3}), 0);
  Vary(b.FloatInit("b1", {32}), 1);
  Vary(b.FloatInit("w2", {32, 32, 3, 3}), 2);
  B::Ints(b.Node("Conv", {"x", "w1", "b1"}, {"c1"}), "pads", {1, 1, 1, 1});
  b.Node("Relu", {"c1"}, {"r1"});
  B::Ints(b.Node("Conv", {"r1", "w2"}, {"c2"}), "pads", {1, 1, 1, 1});
  b.Node("Add", {"c2", "x"}, {"s"});
  b.Node("Relu", {"s"}, {"y"});
  b.Output("y");
  return fixtures::WriteTempFile("residual_block.onnx", b.Bytes());
}

struct Built {
  std::vector<float> output;
  std::vector<std::string> schedules;
};

Built BuildAndRun(const std::string& model, std::vector<std::string> disabled) {
  ModelCompileOptions options;
  options.disabled_passes = std::move(disabled);
  absl::StatusOr<CompiledModel> compiled = CompileModel(model, options, target::Target::Host());
  EXPECT_TRUE(compiled.ok()) << compiled.status();
  if (!compiled.ok()) return {};
  Built out;
  for (const graph::GroupKernel& k : compiled->built.kernels) out.schedules.push_back(k.schedule);
  const std::string path = ::testing::TempDir() + "/winograd_" + std::to_string(getpid()) +
                           (disabled.empty() ? "_on" : "_off") + ".so";
  EXPECT_TRUE(ExportCompiledModel(*compiled, path).ok());
  absl::StatusOr<std::unique_ptr<ModelExecutor>> exec = OpenModelModule(path);
  EXPECT_TRUE(exec.ok()) << exec.status();
  if (!exec.ok()) return out;
  std::vector<float> input(32 * 16 * 16);
  for (size_t i = 0; i < input.size(); ++i) input[i] = std::sin(0.37f * static_cast<float>(i));
  EXPECT_TRUE((*exec)->SetInput(0, input.data(), input.size() * sizeof(float)).ok());
  EXPECT_TRUE((*exec)->Run().ok());
  absl::StatusOr<const DLTensor*> y = (*exec)->Output(0);
  EXPECT_TRUE(y.ok()) << y.status();
  if (y.ok()) {
    const float* data = static_cast<const float*>((*y)->data);
    out.output.assign(data, data + input.size());
  }
  std::filesystem::remove(path);
  return out;
}

TEST(ModelWinogradTest, WinogradBuildMatchesTheDirectBuild) {
  const std::string model = ResidualBlock();
  const Built winograd = BuildAndRun(model, {});
  const Built direct = BuildAndRun(model, {"winograd"});
  int winograd_kernels = 0;
  for (const std::string& s : winograd.schedules) {
    winograd_kernels += s.find("conv2d_winograd_nchwc template F(4x4") != std::string::npos;
  }
  EXPECT_EQ(winograd_kernels, 2);
  for (const std::string& s : direct.schedules) {
    EXPECT_EQ(s.find("winograd"), std::string::npos) << s;
  }
  ASSERT_EQ(winograd.output.size(), direct.output.size());
  ASSERT_FALSE(direct.output.empty());
  double largest = 0, worst = 0;
  for (size_t i = 0; i < direct.output.size(); ++i) {
    largest = std::max(largest, std::fabs(double(direct.output[i])));
    worst = std::max(worst, std::fabs(double(winograd.output[i]) - direct.output[i]));
  }
  // The model tolerance `tunefarm model run --expect` applies: 1e-4 of the largest magnitude.
  EXPECT_LE(worst, 1e-4 * largest) << "largest " << largest;
}

}  // namespace
}  // namespace tunefarm::driver
