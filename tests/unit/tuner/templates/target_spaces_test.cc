// The templates' spaces sized for targets other than the host: an AVX2 CPU's points (8 lanes, 16
// registers) run correctly here, and an AArch64 board's points (4 lanes, 32 registers) lower.
#include <gtest/gtest.h>

#include "compiler/passes/lower.h"
#include "compiler/target/target_cpu.h"
#include "tests/unit/tuner/templates/template_harness.h"
#include "tuner/templates/template_registry.h"

namespace tunefarm::tuner {
namespace {

const char* const kTargetKeys[] = {"matmul:19,40,13",
                                   "dense:9,30,7",
                                   "batch_matmul:2,7,33,5",
                                   "conv2d:1,5,9,11,6,3,3,1,1",
                                   "conv2d_nchwc:1,10,8,9,12,3,3,2,1",
                                   "depthwise_conv2d:1,6,9,21,3,3,1,1",
                                   "depthwise_conv2d_nchwc:1,11,9,10,3,3,1,1",
                                   "dense_int8:9,40,12:int8"};

std::unique_ptr<Task> TaskOn(const std::string& key, const std::string& text) {
  absl::StatusOr<target::Target> target = target::ParseTarget(text);
  EXPECT_TRUE(target.ok()) << text << ": " << target.status();
  if (!target.ok()) return nullptr;
  absl::StatusOr<std::unique_ptr<Task>> task = CreateTask(*ParseWorkloadKey(key), *target);
  EXPECT_TRUE(task.ok()) << key << " on " << text << ": " << task.status();
  return task.ok() ? *std::move(task) : nullptr;
}

TEST(TargetSpacesTest, Avx2PointsMatchTheReference) {
  if (target::CpuInfoOf(target::Target::Host()).vector_bits < 256)
    GTEST_SKIP() << "host without AVX2";
  for (const char* key : kTargetKeys) {
    std::unique_ptr<Task> task = TaskOn(key, "llvm -mcpu=haswell");
    ASSERT_NE(task, nullptr);
    EXPECT_EQ(task->cpu().Lanes(4), 8);
    testing::CheckSampledConfigs(*task, 1, 51);
  }
}

// The sizes tuner/templates/README.md quotes: dense_int8 64x1024x1024, 6 x 4 x 3 x 2 points, the
// register tiles that do not fit (accumulators + loads + a broadcast) removed; conv2d_int8
// 56x56 64->64 3x3, the tile widths that fit the registers (and the default) x parallel.
TEST(TargetSpacesTest, Int8SpaceSizesFollowTheRegisterCount) {
  struct Expected {
    std::string key, target;
    int64_t size, valid;
  };
  for (const Expected& e : std::vector<Expected>{
           {"dense_int8:64,1024,1024:int8", "llvm -mcpu=skylake-avx512", 144, 138},
           {"dense_int8:64,1024,1024:int8", "llvm -mcpu=haswell", 144, 102},
           {"conv2d_int8:1,64,56,56,64,3,3,1,1:int8", "llvm -mcpu=skylake-avx512", 16, 16},
           {"conv2d_int8:1,64,56,56,64,3,3,1,1:int8", "llvm -mcpu=haswell", 14, 14}}) {
    std::unique_ptr<Task> task = TaskOn(e.key, e.target);
    ASSERT_NE(task, nullptr);
    EXPECT_EQ(task->space().size(), e.size) << e.key << " on " << e.target;
    EXPECT_EQ(*task->space().CountValid(), e.valid) << e.key << " on " << e.target;
  }
}

TEST(TargetSpacesTest, AArch64PointsLower) {
  for (const char* key : kTargetKeys) {
    std::unique_ptr<Task> task = TaskOn(key, "llvm -mtriple=aarch64-linux-gnu");
    ASSERT_NE(task, nullptr);
    EXPECT_EQ(task->cpu().Lanes(4), 4);
    std::mt19937_64 rng(61);
    absl::StatusOr<space::Config> def = task->DefaultConfig();
    ASSERT_TRUE(def.ok()) << key << ": " << def.status();
    std::vector<space::Config> configs = {*def};
    for (int i = 0; i < 5; ++i) configs.push_back(*space::SampleValidConfig(task->space(), rng));
    for (const space::Config& c : configs) {
      absl::StatusOr<topi::ScheduledOp> op = task->Apply(c);
      ASSERT_TRUE(op.ok()) << key << ": " << op.status();
      passes::PassOptions options;
      options.target = passes::LoweringTarget::kLlvm;
      absl::StatusOr<ir::PrimFunc> f = passes::Lower(op->schedule, op->args, "kernel", options);
      EXPECT_TRUE(f.ok()) << key << " " << space::ConfigToJson(c) << ": " << f.status();
    }
  }
}

}  // namespace
}  // namespace tunefarm::tuner
