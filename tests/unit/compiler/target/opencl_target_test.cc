#include "compiler/target/opencl_target.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "compiler/target/target.h"

namespace tunefarm::target {
namespace {

using ::testing::HasSubstr;

TEST(OpenClTargetTest, DeviceProfilesParseAndPrintCanonically) {
  struct Case {
    const char* text;
    const char* canonical;
    int64_t max_threads;
  };
  for (const Case& c :
       {Case{"opencl", "opencl", 256}, Case{"opencl  -device=mali", "opencl -device=mali", 256},
        Case{"opencl -device=adreno", "opencl -device=adreno", 1024},
        Case{"opencl -device=intel_graphics", "opencl -device=intel_graphics", 256},
        Case{"opencl -device=pocl", "opencl -device=pocl", 1024}}) {
    absl::StatusOr<OpenClTarget> t = ParseOpenClTarget(c.text);
    ASSERT_TRUE(t.ok()) << c.text << ": " << t.status();
    EXPECT_EQ(t->ToString(), c.canonical);
    EXPECT_EQ(t->max_threads(), c.max_threads) << c.text;
    EXPECT_EQ(t->max_local_bytes(), 32 * 1024);
  }
}

TEST(OpenClTargetTest, BadStringsSayWhatIsAccepted) {
  for (const char* text : {"opencl -device=", "opencl -device=mali -device=adreno",
                           "opencl -arch=sm_90", "opencl -device=vulkan", "cuda"}) {
    absl::StatusOr<OpenClTarget> t = ParseOpenClTarget(text);
    ASSERT_FALSE(t.ok()) << text;
    EXPECT_EQ(t.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_THAT(std::string(t.status().message()), HasSubstr("mali, adreno, intel_graphics, pocl"))
        << text;
  }
}

TEST(OpenClTargetTest, TheTargetIsAGpuWithItsOwnFileExtension) {
  absl::StatusOr<Target> t = ParseTarget("opencl -device=mali");
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_TRUE(t->is_opencl());
  EXPECT_TRUE(t->is_gpu());
  EXPECT_FALSE(t->is_cuda());
  EXPECT_STREQ(t->kind_name(), "opencl");
  EXPECT_STREQ(t->library_extension(), ".opencl");
  EXPECT_EQ(t->lowering(), passes::LoweringTarget::kCuda);
  EXPECT_EQ(t->opencl().device, OpenClTarget::Device::kMali);
  EXPECT_FALSE(ParseTarget("llvm")->is_gpu());
}

}  // namespace
}  // namespace tunefarm::target
