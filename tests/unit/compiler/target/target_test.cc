// ParseTarget: one typed value per target string, its kind, canonical string and lowering, so
// every command and the tuner lower a kernel the same way.
#include "compiler/target/target.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "absl/strings/str_cat.h"

namespace tunefarm::target {
namespace {

using ::testing::HasSubstr;

TEST(TargetTest, LlvmTargetsLowerForTheCpuAndKeepLlvmsCanonicalString) {
  absl::StatusOr<Target> host = ParseTarget("llvm");
  ASSERT_TRUE(host.ok()) << host.status();
  EXPECT_EQ(host->kind(), Target::Kind::kCpu);
  EXPECT_FALSE(host->is_cuda());
  EXPECT_EQ(host->lowering(), passes::LoweringTarget::kLlvm);
  EXPECT_EQ(host->str(), host->llvm().ToString());
  EXPECT_TRUE(host->llvm().is_host);
  EXPECT_STREQ(host->library_extension(), ".so");
  EXPECT_EQ(*host, Target::Host());

  absl::StatusOr<Target> arm = ParseTarget("llvm -mtriple=aarch64-linux-gnu -mattr=+neon");
  ASSERT_TRUE(arm.ok()) << arm.status();
  EXPECT_EQ(arm->lowering(), passes::LoweringTarget::kLlvm);
  EXPECT_TRUE(arm->llvm().is_aarch64());
  EXPECT_FALSE(*arm == *host);
}

TEST(TargetTest, CudaTargetsLowerForTheGpuAndTheirHostIsThisMachine) {
  absl::StatusOr<Target> gpu = ParseTarget("cuda -arch=sm_80");
  ASSERT_TRUE(gpu.ok()) << gpu.status();
  EXPECT_TRUE(gpu->is_cuda());
  EXPECT_EQ(gpu->lowering(), passes::LoweringTarget::kCuda);
  EXPECT_EQ(gpu->str(), "cuda -arch=sm_80");
  EXPECT_EQ(gpu->cuda().sm, 80);
  EXPECT_STREQ(gpu->library_extension(), ".cuda");
  EXPECT_EQ(gpu->llvm().ToString(), Target::Host().str());
  EXPECT_EQ(ParseTarget("cuda")->str(), "cuda -arch=sm_90");
}

// The host's canonical string carries every CPU feature (-mattr=+a,+b,... over a thousand
// characters on a server CPU); tables and progress lines show it as a person writes it.
TEST(TargetTest, TheDisplayedTargetDropsTheFeatureListOnly) {
  const std::string canonical = Target::Host().str();
  const std::string shown = DisplayTarget(canonical);
  EXPECT_THAT(shown, ::testing::StartsWith("llvm"));
  EXPECT_THAT(shown, ::testing::Not(HasSubstr("-mattr")));
  EXPECT_LT(shown.size(), 120u) << shown;
  EXPECT_EQ(DisplayTarget("llvm -mtriple=aarch64-linux-gnu -mcpu=cortex-a72 -mattr=+neon,+crc"),
            "llvm -mtriple=aarch64-linux-gnu -mcpu=cortex-a72");
  EXPECT_EQ(DisplayTarget("cuda -arch=sm_90"), "cuda -arch=sm_90");
}

TEST(TargetTest, TheCanonicalStringParsesBackToTheSameTarget) {
  for (const char* text : {"llvm", "llvm -mtriple=x86_64-linux-gnu -mcpu=znver3",
                           "llvm -mtriple=aarch64-linux-gnu -mattr=+neon", "cuda", "opencl",
                           "opencl -device=mali", "opencl -device=adreno"}) {
    absl::StatusOr<Target> t = ParseTarget(text);
    ASSERT_TRUE(t.ok()) << text << ": " << t.status();
    absl::StatusOr<Target> again = ParseTarget(t->str());
    ASSERT_TRUE(again.ok()) << t->str() << ": " << again.status();
    EXPECT_EQ(*again, *t) << text;
  }
}

TEST(TargetTest, BadStringsNameThemselvesAndListWhatIsAccepted) {
  for (const char* text : {"cudax", "interp", " ", ""}) {
    absl::StatusOr<Target> t = ParseTarget(text);
    ASSERT_FALSE(t.ok()) << text;
    EXPECT_EQ(t.status().code(), absl::StatusCode::kInvalidArgument) << text;
    EXPECT_THAT(t.status().message(), HasSubstr(absl::StrCat("'", text, "'"))) << text;
    EXPECT_THAT(t.status().message(), HasSubstr("the kind must be 'llvm', 'cuda' or 'opencl'"))
        << text;
    EXPECT_THAT(t.status().message(), HasSubstr("-mtriple=")) << text;
    EXPECT_THAT(t.status().message(), HasSubstr("cuda -arch=sm_XY")) << text;
  }
  // Within a kind, its own parser's message: LLVM lists CPUs, CUDA its archs.
  absl::StatusOr<Target> cpu = ParseTarget("llvm -mcpu=nosuchcpu");
  ASSERT_FALSE(cpu.ok());
  EXPECT_THAT(cpu.status().message(), HasSubstr("nosuchcpu"));
  EXPECT_TRUE(ParseTarget("  cuda   -arch=sm_80")->is_cuda());
  absl::StatusOr<Target> old_gpu = ParseTarget("cuda -arch=sm_70");
  ASSERT_FALSE(old_gpu.ok());
  EXPECT_THAT(old_gpu.status().message(), HasSubstr("sm_75"));
}

}  // namespace
}  // namespace tunefarm::target
