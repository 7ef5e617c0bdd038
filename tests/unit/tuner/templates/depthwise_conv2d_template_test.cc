// The depthwise conv2d template: the default and random valid configs compute what its naive
// reference does, and the reference what a C++ loop nest does.
#include "tuner/templates/depthwise_conv2d_template.h"

#include <gtest/gtest.h>

#include "tests/unit/tuner/templates/conv_reference.h"
#include "tests/unit/tuner/templates/template_harness.h"
#include "tuner/templates/template_registry.h"

namespace tunefarm::tuner {
namespace {

TEST(DepthwiseConv2dTemplateTest, SampledConfigsMatchTheReference) {
  std::unique_ptr<Task> task = testing::MakeTask("depthwise_conv2d:1,6,15,37,3,3,1,1");
  ASSERT_NE(task, nullptr);
  testing::CheckSampledConfigs(*task, 20, 31);
}

TEST(DepthwiseConv2dTemplateTest, StridedConfigsMatchTheReference) {
  std::unique_ptr<Task> task = testing::MakeTask("depthwise_conv2d:2,3,14,20,5,3,2,2");
  ASSERT_NE(task, nullptr);
  testing::CheckSampledConfigs(*task, 3, 32);
}

TEST(DepthwiseConv2dTemplateTest, ReferenceComputesTheConv) {
  testing::CheckConvReference("depthwise_conv2d:2,3,9,8,3,2,2,1", testing::ConvLayout::kDepthwise);
}

TEST(DepthwiseConv2dTemplateTest, Flops) {
  EXPECT_DOUBLE_EQ(testing::MakeTask("depthwise_conv2d:1,32,112,112,3,3,1,1")->flops(),
                   2.0 * 32 * 112 * 112 * 9);
}

}  // namespace
}  // namespace tunefarm::tuner
