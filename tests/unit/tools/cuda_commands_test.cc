// `tunefarm build/run --target cuda` without a GPU: build writes a CUDA module (PTX and launches)
// that parses back; run says plainly that no GPU is present. On a machine with a GPU, run
// compares the GPU's outputs with the reference instead.
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <iterator>
#include <sstream>

#include "runtime/cuda/cuda_driver.h"
#include "runtime/gpu/gpu_module.h"
#include "tests/testing/files.h"
#include "tools/commands/build_command.h"
#include "tools/commands/run_command.h"

namespace tunefarm::tools {
namespace {

#ifdef TUNEFARM_HAVE_CUDA

TEST(CudaCommandsTest, BuildWritesAModuleWithItsLaunches) {
  BuildOptions build;
  build.file = fixtures::SourcePath("examples/split_bind_gpu.te");
  build.target = "cuda -arch=sm_90";
  build.output = (std::filesystem::path(::testing::TempDir()) / "split_bind.cuda").string();
  std::ostringstream out, err;
  ASSERT_EQ(RunBuildCommand(build, out, err), 0) << err.str();
  EXPECT_NE(out.str().find("registers"), std::string::npos) << out.str();
  std::ifstream in(build.output, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  absl::StatusOr<runtime::gpu::GpuModuleImage> image = runtime::gpu::ParseGpuModule(text.str());
  ASSERT_TRUE(image.ok()) << image.status();
  EXPECT_EQ(image->arch, "sm_90");
  ASSERT_EQ(image->functions.size(), 1u);
  ASSERT_EQ(image->functions[0].launches.size(), 1u);
  const runtime::gpu::GpuLaunch& launch = image->functions[0].launches[0];
  EXPECT_EQ(*runtime::gpu::EvalLaunchExpr(launch.grid[0], {{"n", 1000}}), 16);
  EXPECT_EQ(*runtime::gpu::EvalLaunchExpr(launch.block[0], {{"n", 1000}}), 64);
  EXPECT_NE(image->code.find(".entry"), std::string::npos);
}

TEST(CudaCommandsTest, LibraryWorkloadsBuildTheirGpuTemplate) {
  BuildOptions build;
  build.workload = "conv2d:2,16,14,14,32,3,3,1,1";
  build.target = "cuda";
  build.output = (std::filesystem::path(::testing::TempDir()) / "conv.cuda").string();
  std::ostringstream out, err;
  ASSERT_EQ(RunBuildCommand(build, out, err), 0) << err.str();
  EXPECT_NE(out.str().find("CUDA module"), std::string::npos) << out.str();
  std::ifstream in(build.output, std::ios::binary);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  absl::StatusOr<runtime::gpu::GpuModuleImage> image = runtime::gpu::ParseGpuModule(text);
  ASSERT_TRUE(image.ok()) << image.status();
  EXPECT_EQ(image->functions.at(0).signature.args.size(), 3u);  // data, kernel, out
}

TEST(CudaCommandsTest, RunSaysNoGpuIsPresentOrMatchesOnOne) {
  RunOptions run;
  run.file = fixtures::SourcePath("examples/split_bind_gpu.te");
  run.bind = "n=1000";
  run.target = "cuda";
  std::ostringstream out, err;
  const int code = RunRunCommand(run, out, err);
  if (!runtime::cuda::CudaDriver::Get().ok()) {
    EXPECT_EQ(code, 1);
    EXPECT_NE(err.str().find("no CUDA device present"), std::string::npos) << err.str();
  } else {
    EXPECT_EQ(code, 0) << err.str();
    EXPECT_NE(out.str().find("ok"), std::string::npos) << out.str();
  }
}

#endif

TEST(CudaCommandsTest, BadCudaTargetsListWhatIsAccepted) {
  RunOptions run;
  run.file = fixtures::SourcePath("examples/split_bind_gpu.te");
  run.bind = "n=1000";
  run.target = "cuda -arch=sm_60";
  std::ostringstream out, err;
  EXPECT_NE(RunRunCommand(run, out, err), 0);
  EXPECT_NE(err.str().find("sm_"), std::string::npos) << err.str();
}

}  // namespace
}  // namespace tunefarm::tools
