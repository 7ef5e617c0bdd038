// A model compiled by `tunefarm model build` for AArch64 (a small CNN: conv, relu, pooling, a
// fully connected layer and softmax, from an ONNX file) runs on the deployed runtime alone:
// deploy/run_model cross-built for AArch64, under qemu-aarch64, prints the same top-5 classes as
// the same model built for this host and run here. Skips, with the reason, where the cross tools
// or qemu are missing.
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <numeric>
#include <random>
#include <sstream>
#include <unistd.h>

#include "driver/model_compiler.h"
#include "tests/e2e/small_cnn_onnx.h"
#include "tests/testing/deployed_programs.h"
#include "tests/testing/files.h"
#include "tools/commands/model_build_command.h"

#ifndef TUNEFARM_AARCH64_RUN_MODEL
#define TUNEFARM_AARCH64_RUN_MODEL ""
#endif

namespace tunefarm::tools {
namespace {

std::string SmallCnn() { return fixtures::SmallCnnOnnx("small_cnn.onnx"); }

TEST(DeployModelTest, AModelBuiltForAArch64RunsUnderQemuAsOnThisHost) {
  const std::string runner = TUNEFARM_AARCH64_RUN_MODEL;
  if (runner.empty() || access(runner.c_str(), X_OK) != 0) {
    GTEST_SKIP() << "deploy/run_model for AArch64 is not built (aarch64-linux-gnu-g++ missing?)";
  }
  std::string missing;
  const std::string qemu = fixtures::QemuAarch64Command(&missing);
  if (qemu.empty()) GTEST_SKIP() << missing;
  const std::string dir = ::testing::TempDir() + "/deploy_model_" + std::to_string(getpid());
  std::filesystem::create_directories(dir);
  const std::string onnx = SmallCnn();

  ModelBuildOptions build;
  build.file = onnx;
  build.output = dir + "/cnn_a64.so";
  build.target = "llvm -mtriple=aarch64-linux-gnu -mattr=+neon";
  std::ostringstream out, err;
  ASSERT_EQ(RunModelBuildCommand(build, out, err), 0) << err.str();

  std::vector<float> input(3 * 16 * 16);
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  for (float& v : input) v = uniform(rng);
  std::ofstream(dir + "/input.bin", std::ios::binary)
      .write(reinterpret_cast<const char*>(input.data()),
             static_cast<std::streamsize>(input.size() * sizeof(float)));
  const std::string command = qemu + " " + runner + " " + build.output + " --input " + dir +
                              "/input.bin --threads 2 >" + dir + "/qemu.log 2>&1";
  ASSERT_EQ(std::system(command.c_str()), 0) << *fixtures::ReadFile(dir + "/qemu.log");
  const std::string printed = *fixtures::ReadFile(dir + "/qemu.log");

  absl::StatusOr<std::unique_ptr<driver::ModelExecutor>> host =
      driver::LoadModelForRun(onnx, {}, target::Target::Host());
  ASSERT_TRUE(host.ok()) << host.status();
  const int image = (*host)->InputIndex("image");
  ASSERT_GE(image, 0);
  ASSERT_TRUE((*host)->SetInput(image, input.data(), input.size() * sizeof(float)).ok());
  ASSERT_TRUE((*host)->Run().ok());
  absl::StatusOr<const DLTensor*> output = (*host)->Output(0);
  ASSERT_TRUE(output.ok()) << output.status();
  ASSERT_EQ((*host)->outputs()[0].name, "prob");
  const float* prob = static_cast<const float*>((*output)->data);
  std::vector<int> order(10);
  std::iota(order.begin(), order.end(), 0);
  std::partial_sort(order.begin(), order.begin() + 5, order.end(),
                    [&](int a, int b) { return prob[a] > prob[b]; });
  order.resize(5);
  EXPECT_EQ(fixtures::PrintedTop5(printed, "prob"), order) << printed;
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace tunefarm::tools
