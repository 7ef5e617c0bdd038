// The channel-blocked depthwise conv2d template: the default and random valid configs (whose
// channel block changes the argument layouts) compute what the naive reference of the same
// layouts does, and the reference what a C++ loop nest does.
#include "tuner/templates/depthwise_conv2d_nchwc_template.h"

#include <gtest/gtest.h>
#include <random>

#include "tests/unit/tuner/templates/template_harness.h"
#include "tuner/templates/template_registry.h"

namespace tunefarm::tuner {
namespace {

TEST(DepthwiseConv2dNchwcTemplateTest, SampledConfigsMatchTheReference) {
  std::unique_ptr<Task> task = testing::MakeTask("depthwise_conv2d_nchwc:1,20,15,13,3,3,1,1");
  ASSERT_NE(task, nullptr);
  testing::CheckSampledConfigs(*task, 20, 41);
}

TEST(DepthwiseConv2dNchwcTemplateTest, StridedConfigsMatchTheReference) {
  std::unique_ptr<Task> task = testing::MakeTask("depthwise_conv2d_nchwc:2,7,14,20,5,3,2,0");
  ASSERT_NE(task, nullptr);
  testing::CheckSampledConfigs(*task, 3, 42);
}

TEST(DepthwiseConv2dNchwcTemplateTest, ReferenceComputesTheConvInBlockedLayouts) {
  std::unique_ptr<Task> task = testing::MakeTask("depthwise_conv2d_nchwc:2,5,9,8,3,2,2,1");
  ASSERT_NE(task, nullptr);
  absl::StatusOr<space::Config> def = task->DefaultConfig();
  ASSERT_TRUE(def.ok()) << def.status();
  absl::StatusOr<topi::ScheduledOp> ref = task->tmpl().Reference(*def);
  ASSERT_TRUE(ref.ok()) << ref.status();
  std::vector<runtime::NDArray> arrays = testing::MakeArgs(*ref);
  ASSERT_TRUE(testing::BuildAndRun(*ref, arrays, 1).ok());
  const std::vector<int64_t> ds = testing::ShapeOf(ref->args[0]),
                             os = testing::ShapeOf(ref->args[2]);
  const int64_t n = ds[0], cbs = ds[1], h = ds[2], w = ds[3], cb = ds[4];
  const int64_t oh = os[2], ow = os[3], kh = 3, kw = 2, stride = 2, pad = 1;
  EXPECT_EQ(testing::ShapeOf(ref->args[1]), (std::vector<int64_t>{cbs, kh, kw, cb}));
  const float* data = static_cast<const float*>(arrays[0].data());
  const float* kernel = static_cast<const float*>(arrays[1].data());
  const float* out = static_cast<const float*>(arrays[2].data());
  for (int64_t b = 0; b < n; ++b) {
    for (int64_t g = 0; g < cbs; ++g) {
      for (int64_t y = 0; y < oh; ++y) {
        for (int64_t x = 0; x < ow; ++x) {
          for (int64_t c = 0; c < cb; ++c) {
            double acc = 0;
            for (int64_t ry = 0; ry < kh; ++ry) {
              for (int64_t rx = 0; rx < kw; ++rx) {
                const int64_t iy = y * stride + ry - pad, ix = x * stride + rx - pad;
                if (iy < 0 || iy >= h || ix < 0 || ix >= w) continue;
                acc += static_cast<double>(data[(((b * cbs + g) * h + iy) * w + ix) * cb + c]) *
                       kernel[((g * kh + ry) * kw + rx) * cb + c];
              }
            }
            const float got = out[(((b * cbs + g) * oh + y) * ow + x) * cb + c];
            ASSERT_NEAR(got, acc, 1e-4 + 1e-4 * std::fabs(acc));
          }
        }
      }
    }
  }
}

TEST(DepthwiseConv2dNchwcTemplateTest, ReferenceKeyAndFlops) {
  std::unique_ptr<Task> task = testing::MakeTask("depthwise_conv2d_nchwc:1,32,112,112,3,3,1,1");
  ASSERT_NE(task, nullptr);
  EXPECT_DOUBLE_EQ(task->flops(), 2.0 * 32 * 112 * 112 * 9);
  std::mt19937_64 rng(3);
  for (int i = 0; i < 50; ++i) {
    absl::StatusOr<space::Config> c = space::SampleValidConfig(task->space(), rng);
    ASSERT_TRUE(c.ok());
    const int64_t block = *c->ChoiceInt("channel_block");
    EXPECT_EQ(task->tmpl().ReferenceKey(*c), absl::StrCat("c", block));
    absl::StatusOr<topi::ScheduledOp> op = task->Apply(*c);
    ASSERT_TRUE(op.ok()) << op.status();
    EXPECT_EQ(testing::ShapeOf(op->args[0]),
              (std::vector<int64_t>{1, (32 + block - 1) / block, 112, 112, block}));
  }
}

TEST(DepthwiseConv2dNchwcTemplateTest, AWorkloadsChannelBlockFixesTheLayout) {
  // A model's task: its channels in the block of two 8-lane vectors its producer writes.
  std::unique_ptr<Task> task = testing::MakeTask("depthwise_conv2d_nchwc:1,20,15,13,3,3,1,1,16");
  ASSERT_NE(task, nullptr);
  absl::StatusOr<space::Config> def = task->DefaultConfig();
  ASSERT_TRUE(def.ok()) << def.status();
  EXPECT_EQ(*def->ChoiceInt("channel_block"), 16);
  std::mt19937_64 rng(8);
  for (int i = 0; i < 50; ++i) {
    absl::StatusOr<space::Config> c = space::SampleValidConfig(task->space(), rng);
    ASSERT_TRUE(c.ok());
    EXPECT_EQ(*c->ChoiceInt("channel_block"), 16);
  }
  testing::CheckSampledConfigs(*task, 4, 43);
  absl::StatusOr<std::unique_ptr<Task>> bad = CreateTask(
      *ParseWorkloadKey("depthwise_conv2d_nchwc:1,20,15,13,3,3,1,1,5"), target::Target::Host());
  EXPECT_EQ(bad.status().code(), absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace tunefarm::tuner
