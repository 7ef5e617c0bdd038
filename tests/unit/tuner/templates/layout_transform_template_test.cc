// The layout transform template: its one config is the build's default schedule and computes
// what the unscheduled transform does (padded channels zero in the output); workloads with equal
// or oversized blocks are refused naming the form.
#include "tuner/templates/layout_transform_template.h"

#include <gtest/gtest.h>

#include "tests/unit/tuner/templates/template_harness.h"
#include "tuner/templates/template_registry.h"

namespace tunefarm::tuner {
namespace {

TEST(LayoutTransformTemplateTest, ItsOneConfigMatchesTheReference) {
  // 20 channels: two blocks of 16 (the second padded) to three of 8 (the last padded).
  std::unique_ptr<Task> task = testing::MakeTask("layout_transform:1,20,5,7,16,8");
  ASSERT_NE(task, nullptr);
  EXPECT_EQ(task->space().size(), 1);
  absl::StatusOr<space::Config> def = task->DefaultConfig();
  ASSERT_TRUE(def.ok()) << def.status();
  absl::StatusOr<topi::ScheduledOp> op = task->Apply(*def);
  ASSERT_TRUE(op.ok()) << op.status();
  EXPECT_EQ(testing::ShapeOf(op->args[0]), (std::vector<int64_t>{1, 2, 5, 7, 16}));
  EXPECT_EQ(testing::ShapeOf(op->args[1]), (std::vector<int64_t>{1, 3, 5, 7, 8}));
  EXPECT_DOUBLE_EQ(task->flops(), 1.0 * 24 * 5 * 7);
  testing::CheckSampledConfigs(*task, 1, 3);
}

TEST(LayoutTransformTemplateTest, EqualOrOversizedBlocksAreRefused) {
  for (const char* key : {"layout_transform:1,20,5,7,16,16", "layout_transform:1,20,5,7,16,512",
                          "layout_transform:1,20,5,7,16", "layout_transform:1,0,5,7,16,8"}) {
    absl::StatusOr<std::unique_ptr<Task>> task =
        CreateTask(*ParseWorkloadKey(key), target::Target::Host());
    ASSERT_FALSE(task.ok()) << key;
    EXPECT_EQ(task.status().code(), absl::StatusCode::kInvalidArgument) << key;
    EXPECT_NE(task.status().message().find("layout_transform"), std::string::npos) << task.status();
  }
}

}  // namespace
}  // namespace tunefarm::tuner
