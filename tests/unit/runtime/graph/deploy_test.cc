// The deployed half end to end: deploy/ configured and built as its own CMake project runs a model
// module and prints the reference's top-5 classes; the same example cross-built for AArch64 runs
// a module compiled for AArch64 under qemu-aarch64; and runtime/core + runtime/graph as one
// stripped shared library stays under the 600 KB budget. Each skips, with the reason, where its
// tools are missing.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <numeric>
#include <sstream>
#include <unistd.h>

#include "tests/testing/deployed_programs.h"
#include "tests/testing/files.h"
#include "tests/unit/runtime/graph/test_models.h"

#ifndef TUNEFARM_AARCH64_RUN_MODEL
#define TUNEFARM_AARCH64_RUN_MODEL ""
#endif
#ifndef TUNEFARM_GRAPH_RUNTIME_STRIPPED
#define TUNEFARM_GRAPH_RUNTIME_STRIPPED ""
#endif

namespace tunefarm::runtime {
namespace {

// Runs `command` with its output in `log`; true on exit status 0.
bool RunShell(const std::string& command, const std::string& log) {
  return std::system((command + " >" + log + " 2>&1").c_str()) == 0;
}

std::vector<int> ReferenceTop5(const testing::TestModel& m, const std::vector<float>& x) {
  std::vector<float> y = testing::Reference(m, x, false);
  std::vector<int> order(y.size());
  std::iota(order.begin(), order.end(), 0);
  std::partial_sort(order.begin(), order.begin() + 5, order.end(),
                    [&](int a, int b) { return y[a] > y[b]; });
  order.resize(5);
  return order;
}

class DeployTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = testing::ScratchDir("deploy");
    model_ = testing::MakeMlp(/*batch=*/1);
    input_ = testing::RandomFloats(16, 77);
    std::ofstream(dir_ + "/input.bin", std::ios::binary)
        .write(reinterpret_cast<const char*>(input_.data()), 16 * sizeof(float));
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::string dir_;
  testing::TestModel model_;
  std::vector<float> input_;
};

TEST_F(DeployTest, TheDeployProjectBuildsAndPrintsTheTop5) {
  const std::string cmake = fixtures::FindOnPath("cmake");
  if (cmake.empty()) GTEST_SKIP() << "cmake is not on PATH";
  std::string error;
  std::string model = testing::BuildModelLibrary(model_.source, dir_ + "/mlp", &error);
  ASSERT_FALSE(model.empty()) << error;
  // -O1 and ccache where present keep this to seconds: the runtime is compiled from source.
  std::string launcher = fixtures::FindOnPath("ccache");
  const std::string build = dir_ + "/build";
  const std::string configure =
      cmake + " -S " TUNEFARM_SOURCE_DIR "/deploy -B " + build +
      " -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS_RELEASE=-O1" +
      (launcher.empty() ? "" : " -DCMAKE_CXX_COMPILER_LAUNCHER=" + launcher);
  ASSERT_TRUE(RunShell(configure, dir_ + "/configure.log"))
      << fixtures::ReadFile(dir_ + "/configure.log").value_or("");
  ASSERT_TRUE(RunShell(cmake + " --build " + build + " --parallel 2", dir_ + "/build.log"))
      << fixtures::ReadFile(dir_ + "/build.log").value_or("");
  ASSERT_TRUE(
      RunShell(build + "/run_model " + model + " --input " + dir_ + "/input.bin --threads 2",
               dir_ + "/run.log"))
      << fixtures::ReadFile(dir_ + "/run.log").value_or("");
  const std::string output = fixtures::ReadFile(dir_ + "/run.log").value_or("");
  EXPECT_NE(output.find("input x [1,16]"), std::string::npos) << output;
  EXPECT_NE(output.find("output prob [1,10]"), std::string::npos) << output;
  EXPECT_EQ(fixtures::PrintedTop5(output, "prob"), ReferenceTop5(model_, input_)) << output;
}

TEST_F(DeployTest, TheAArch64BuildRunsUnderQemu) {
  const std::string runner = TUNEFARM_AARCH64_RUN_MODEL;
  if (runner.empty()) GTEST_SKIP() << "no aarch64-linux-gnu-g++ at configure time";
  if (access(runner.c_str(), X_OK) != 0) {
    GTEST_SKIP() << runner << " is not built (ninja tf_run_model_aarch64)";
  }
  std::string missing;
  const std::string qemu = fixtures::QemuAarch64Command(&missing);
  if (qemu.empty()) GTEST_SKIP() << missing;
  const std::string cc = fixtures::FindOnPath("aarch64-linux-gnu-gcc");
  if (cc.empty()) GTEST_SKIP() << "aarch64-linux-gnu-gcc is not on PATH";
  std::string error;
  std::string model = testing::BuildModelLibrary(model_.source, dir_ + "/mlp_a64", &error, cc);
  ASSERT_FALSE(model.empty()) << error;
  const std::string command =
      qemu + " " + runner + " " + model + " --input " + dir_ + "/input.bin --threads 2";
  ASSERT_TRUE(RunShell(command, dir_ + "/qemu.log"))
      << command << "\n"
      << fixtures::ReadFile(dir_ + "/qemu.log").value_or("");
  const std::string output = fixtures::ReadFile(dir_ + "/qemu.log").value_or("");
  EXPECT_NE(output.find("2 threads"), std::string::npos) << output;
  EXPECT_EQ(fixtures::PrintedTop5(output, "prob"), ReferenceTop5(model_, input_)) << output;
}

TEST(GraphRuntimeSizeTest, StrippedRuntimeWithTheGraphExecutorIsUnder600KB) {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  GTEST_SKIP() << "a sanitizer build's library carries its instrumentation (2.9 MB under ASan)";
#endif
  const std::string path = TUNEFARM_GRAPH_RUNTIME_STRIPPED;
  if (path.empty()) GTEST_SKIP() << "built outside the main CMake project";
  std::error_code ec;
  auto bytes = std::filesystem::file_size(path, ec);
  ASSERT_FALSE(ec) << path << ": " << ec.message() << " (build tunefarm_graph_runtime)";
  EXPECT_LT(bytes, 600u * 1024) << path;
  std::printf("libtunefarm_graph_runtime.so stripped: %.1f KB\n", bytes / 1024.0);
}

}  // namespace
}  // namespace tunefarm::runtime
