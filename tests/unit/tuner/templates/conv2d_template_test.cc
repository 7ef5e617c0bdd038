// The direct conv2d template: the default and random valid configs compute what its naive
// reference does, and the reference what a C++ loop nest does.
#include "tuner/templates/conv2d_template.h"

#include <gtest/gtest.h>

#include "tests/unit/tuner/templates/conv_reference.h"
#include "tests/unit/tuner/templates/template_harness.h"
#include "tuner/templates/template_registry.h"

namespace tunefarm::tuner {
namespace {

TEST(Conv2dTemplateTest, SampledConfigsMatchTheReference) {
  std::unique_ptr<Task> task = testing::MakeTask("conv2d:1,5,11,13,7,3,3,1,1");
  ASSERT_NE(task, nullptr);
  testing::CheckSampledConfigs(*task, 20, 11);
}

TEST(Conv2dTemplateTest, StridedUnpaddedConfigsMatchTheReference) {
  std::unique_ptr<Task> task = testing::MakeTask("conv2d:2,3,12,19,10,3,2,2,0");
  ASSERT_NE(task, nullptr);
  testing::CheckSampledConfigs(*task, 3, 12);
}

TEST(Conv2dTemplateTest, ReferenceComputesTheConv) {
  testing::CheckConvReference("conv2d:2,3,9,8,4,3,2,2,1", testing::ConvLayout::kNchw);
}

TEST(Conv2dTemplateTest, Flops) {
  // 56x56 output, 64 -> 64 channels, 3x3 window.
  EXPECT_DOUBLE_EQ(testing::MakeTask("conv2d:1,64,56,56,64,3,3,1,1")->flops(),
                   2.0 * 64 * 56 * 56 * 64 * 9);
  EXPECT_DOUBLE_EQ(testing::MakeTask("conv2d:1,64,56,56,128,1,1,2,0")->flops(),
                   2.0 * 128 * 28 * 28 * 64);
}

}  // namespace
}  // namespace tunefarm::tuner
