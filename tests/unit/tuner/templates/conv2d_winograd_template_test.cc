// The Winograd conv2d template: sampled configs (tile sizes 2, 4 and 6, register blocks) compute
// what the unscheduled transforms do, each tile against its own weight shape; workloads it cannot
// take are refused with the form it wants.
#include "tuner/templates/conv2d_winograd_template.h"

#include <gtest/gtest.h>
#include <random>
#include <set>

#include "tests/unit/tuner/templates/template_harness.h"
#include "tuner/templates/template_registry.h"

namespace tunefarm::tuner {
namespace {

constexpr char kKey[] = "conv2d_winograd_nchwc:1,16,10,9,32,3,3,1,1,8,16";

TEST(Conv2dWinogradTemplateTest, SampledConfigsMatchTheReference) {
  std::unique_ptr<Task> task = testing::MakeTask(kKey);
  ASSERT_NE(task, nullptr);
  testing::CheckSampledConfigs(*task, 4, 51);
}

TEST(Conv2dWinogradTemplateTest, EachTileHasItsOwnWeightShapeAndReference) {
  std::unique_ptr<Task> task = testing::MakeTask(kKey);
  ASSERT_NE(task, nullptr);
  absl::StatusOr<space::Config> def = task->DefaultConfig();
  ASSERT_TRUE(def.ok()) << def.status();
  EXPECT_EQ(*def->ChoiceInt("tile"), 4);
  std::set<std::string> keys;
  std::mt19937_64 rng(9);
  for (int i = 0; i < 40; ++i) {
    absl::StatusOr<space::Config> c = space::SampleValidConfig(task->space(), rng);
    ASSERT_TRUE(c.ok());
    const int64_t tile = *c->ChoiceInt("tile");
    EXPECT_EQ(task->tmpl().ReferenceKey(*c), absl::StrCat("m", tile));
    keys.insert(task->tmpl().ReferenceKey(*c));
    absl::StatusOr<topi::ScheduledOp> op = task->Apply(*c);
    ASSERT_TRUE(op.ok()) << op.status();
    EXPECT_EQ(testing::ShapeOf(op->args[1]),
              (std::vector<int64_t>{tile + 2, tile + 2, 2, 2, 8, 16}));
  }
  EXPECT_EQ(keys.size(), 3u);
}

TEST(Conv2dWinogradTemplateTest, OnlyBlocked3x3StrideOneConvsAreTaken) {
  for (const char* key : {"conv2d_winograd_nchwc:1,16,10,9,32,3,3,2,1,8,16",
                          "conv2d_winograd_nchwc:1,16,10,9,32,5,5,1,2,8,16",
                          "conv2d_winograd_nchwc:1,16,10,9,32,3,3,1,1"}) {
    absl::StatusOr<std::unique_ptr<Task>> task =
        CreateTask(*ParseWorkloadKey(key), target::Target::Host());
    ASSERT_FALSE(task.ok()) << key;
    EXPECT_EQ(task.status().code(), absl::StatusCode::kInvalidArgument) << key;
  }
}

}  // namespace
}  // namespace tunefarm::tuner
