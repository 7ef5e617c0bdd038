// ParseCudaTarget: the accepted strings, the default arch, and errors that list what is accepted.
#include "compiler/target/cuda_target.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace tunefarm::target {
namespace {

using ::testing::HasSubstr;

TEST(CudaTargetTest, PlainCudaIsSm90) {
  absl::StatusOr<CudaTarget> t = ParseCudaTarget("cuda");
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(t->arch(), "sm_90");
  EXPECT_EQ(t->virtual_arch(), "compute_90");
  EXPECT_EQ(t->ToString(), "cuda -arch=sm_90");
}

TEST(CudaTargetTest, ArchOption) {
  absl::StatusOr<CudaTarget> t = ParseCudaTarget("cuda  -arch=sm_80");
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(t->sm, 80);
  EXPECT_EQ(ParseCudaTarget("cuda -arch=sm_75")->arch(), "sm_75");
}

TEST(CudaTargetTest, BadStringsListWhatIsAccepted) {
  for (const char* text : {"", "llvm", "cuda -mcpu=sm_90", "cuda -arch=90", "cuda -arch=sm_xx",
                           "cuda -arch=sm_91", "cuda -arch=sm_90 -arch=sm_80"}) {
    absl::StatusOr<CudaTarget> t = ParseCudaTarget(text);
    ASSERT_FALSE(t.ok()) << text;
    EXPECT_EQ(t.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_THAT(t.status().message(), HasSubstr("accepted: `cuda` (sm_90)")) << text;
    EXPECT_THAT(t.status().message(), HasSubstr("sm_75, sm_80")) << text;
  }
}

TEST(CudaTargetTest, ArchBelowSm75IsRefusedWithTheReason) {
  absl::StatusOr<CudaTarget> t = ParseCudaTarget("cuda -arch=sm_70");
  ASSERT_FALSE(t.ok());
  EXPECT_THAT(t.status().message(), HasSubstr("older than sm_75"));
  EXPECT_THAT(t.status().message(), HasSubstr("NVRTC"));
}

}  // namespace
}  // namespace tunefarm::target
