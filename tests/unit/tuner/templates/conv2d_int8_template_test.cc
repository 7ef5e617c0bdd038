// The conv2d_int8 template: the default and random valid configs compute exactly what its plain
// loop nest does, over a channel block of 8, a partial block of lanes and rows the tile does not
// divide; a float key is refused.
#include "tuner/templates/conv2d_int8_template.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/unit/tuner/templates/template_harness.h"
#include "tuner/templates/template_registry.h"

namespace tunefarm::tuner {
namespace {

TEST(Conv2dInt8TemplateTest, SampledConfigsMatchTheReferenceExactly) {
  // C = 24: an 8-channel block; O = 20: a partial block of lanes; 9 columns: tiles that do not
  // divide the row.
  std::unique_ptr<Task> task = testing::MakeTask("conv2d_int8:1,24,6,9,20,3,3,1,1:int8");
  ASSERT_NE(task, nullptr);
  testing::CheckSampledConfigs(*task, 6, 7);
}

TEST(Conv2dInt8TemplateTest, AFloatKeyIsRefused) {
  absl::Status error;
  absl::StatusOr<Workload> key = ParseWorkloadKey("conv2d_int8:1,8,6,6,16,3,3,1,1");
  ASSERT_TRUE(key.ok());
  EXPECT_EQ(templates::MakeConv2dInt8Template(*key, topi::DetectHostCpu(), error), nullptr);
  EXPECT_THAT(error.message(), ::testing::HasSubstr("supports dtype int8 only"));
}

}  // namespace
}  // namespace tunefarm::tuner
