// The blocked conv2d template: the default and random valid configs (whose channel blocks change
// the argument layouts) compute what the naive reference of the same layouts does.
#include "tuner/templates/conv2d_nchwc_template.h"

#include <gtest/gtest.h>
#include <random>
#include <set>

#include "tests/unit/tuner/templates/conv_reference.h"
#include "tests/unit/tuner/templates/template_harness.h"
#include "tuner/templates/template_registry.h"

namespace tunefarm::tuner {
namespace {

TEST(Conv2dNchwcTemplateTest, SampledConfigsMatchTheReference) {
  std::unique_ptr<Task> task = testing::MakeTask("conv2d_nchwc:1,12,10,9,20,3,3,1,1");
  ASSERT_NE(task, nullptr);
  testing::CheckSampledConfigs(*task, 20, 21);
}

TEST(Conv2dNchwcTemplateTest, StridedUnpaddedConfigsMatchTheReference) {
  std::unique_ptr<Task> task = testing::MakeTask("conv2d_nchwc:1,6,13,11,9,1,3,2,0");
  ASSERT_NE(task, nullptr);
  testing::CheckSampledConfigs(*task, 3, 22);
}

TEST(Conv2dNchwcTemplateTest, ReferenceComputesTheConvInBlockedLayouts) {
  testing::CheckConvReference("conv2d_nchwc:1,5,7,6,10,3,3,1,1", testing::ConvLayout::kNchwc);
}

TEST(Conv2dNchwcTemplateTest, ReferenceKeyNamesTheBlocks) {
  std::unique_ptr<Task> task = testing::MakeTask("conv2d_nchwc:1,64,56,56,64,3,3,1,1");
  ASSERT_NE(task, nullptr);
  std::set<std::string> keys;
  std::mt19937_64 rng(5);
  for (int i = 0; i < 200; ++i) {
    absl::StatusOr<space::Config> c = space::SampleValidConfig(task->space(), rng);
    ASSERT_TRUE(c.ok());
    const int64_t ic = *c->ChoiceInt("ic_block"), oc = *c->ChoiceInt("oc_block");
    EXPECT_EQ(task->tmpl().ReferenceKey(*c), absl::StrCat("ic", ic, ",oc", oc));
    keys.insert(task->tmpl().ReferenceKey(*c));
    absl::StatusOr<topi::ScheduledOp> op = task->Apply(*c);
    ASSERT_TRUE(op.ok()) << op.status();
    EXPECT_EQ(testing::ShapeOf(op->args[0]), (std::vector<int64_t>{1, 64 / ic, 56, 56, ic}));
    EXPECT_EQ(testing::ShapeOf(op->args[2]).back(), oc);
  }
  EXPECT_GT(keys.size(), 4u);
}

TEST(Conv2dNchwcTemplateTest, AWorkloadsBlocksFixTheLayoutAndTheRestIsSearched) {
  // A model's task: input channels in blocks of 4, outputs in blocks of 16, as its layout has.
  std::unique_ptr<Task> task = testing::MakeTask("conv2d_nchwc:1,12,10,9,20,3,3,1,1,4,16");
  ASSERT_NE(task, nullptr);
  absl::StatusOr<space::Config> def = task->DefaultConfig();
  ASSERT_TRUE(def.ok()) << def.status();
  EXPECT_EQ(*def->ChoiceInt("ic_block"), 4);
  EXPECT_EQ(*def->ChoiceInt("oc_block"), 16);
  std::set<int64_t> reg_w;
  std::mt19937_64 rng(6);
  for (int i = 0; i < 100; ++i) {
    absl::StatusOr<space::Config> c = space::SampleValidConfig(task->space(), rng);
    ASSERT_TRUE(c.ok());
    EXPECT_EQ(*c->ChoiceInt("ic_block"), 4);
    EXPECT_EQ(*c->ChoiceInt("oc_block"), 16);
    reg_w.insert(*c->ChoiceInt("reg_w"));
  }
  EXPECT_GT(reg_w.size(), 2u);
  testing::CheckSampledConfigs(*task, 4, 23);
}

TEST(Conv2dNchwcTemplateTest, BlocksOutOfRangeOrInPartsOfVectorsAreRefused) {
  for (const char* key :
       {"conv2d_nchwc:1,12,10,9,20,3,3,1,1,0,16", "conv2d_nchwc:1,12,10,9,20,3,3,1,1,4,300",
        "conv2d_nchwc:1,12,10,9,20,3,3,1,1,4,3", "conv2d_nchwc:1,12,10,9,20,3,3,1,1,4"}) {
    absl::StatusOr<std::unique_ptr<Task>> task =
        CreateTask(*ParseWorkloadKey(key), target::Target::Host());
    ASSERT_FALSE(task.ok()) << key;
    EXPECT_EQ(task.status().code(), absl::StatusCode::kInvalidArgument) << key;
  }
}

}  // namespace
}  // namespace tunefarm::tuner
