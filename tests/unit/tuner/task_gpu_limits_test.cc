// A GPU task's space holds only configs whose launch fits the target (CUDA's 1024 threads and
// 48 KiB, an OpenCL profile's) and, once narrowed, a farm's devices: no trial goes to a launch
// the device would refuse.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tuner/task.h"
#include "tuner/templates/template_registry.h"

namespace tunefarm::tuner {
namespace {

std::unique_ptr<Task> GpuTask(const std::string& key, const std::string& target) {
  absl::StatusOr<Workload> w = ParseWorkloadKey(key);
  EXPECT_TRUE(w.ok()) << w.status();
  absl::StatusOr<std::unique_ptr<Task>> task = CreateTask(*w, *target::ParseTarget(target));
  EXPECT_TRUE(task.ok()) << task.status();
  return task.ok() ? *std::move(task) : nullptr;
}

// Every valid config of a sample of the space launches within `limits`; returns how many valid
// configs the sample held.
int ExpectAllFit(const Task& task, const target::GpuLimits& limits) {
  int valid = 0;
  const int64_t step = std::max<int64_t>(1, task.space().size() / 20000);
  for (int64_t i = 0; i < task.space().size(); i += step) {
    absl::StatusOr<space::Config> c = task.space().Get(i);
    if (!c.ok() || !task.space().IsValid(*c)) continue;
    ++valid;
    std::optional<TaskTemplate::GpuLaunchShape> shape = task.tmpl().LaunchShape(*c);
    EXPECT_TRUE(shape.has_value());
    EXPECT_LE(shape->threads, limits.max_threads);
    EXPECT_LE(shape->shared_bytes, limits.max_shared_bytes);
  }
  return valid;
}

TEST(TaskGpuLimitsTest, AnOpenClProfilesLimitsBoundEveryConfig) {
  for (const char* key : {"matmul:256,256,256:float32", "conv2d:1,32,28,28,64,3,3,1,1:float32",
                          "depthwise_conv2d:1,64,28,28,3,3,1,1:float32"}) {
    std::unique_ptr<Task> mali = GpuTask(key, "opencl -device=mali");
    ASSERT_NE(mali, nullptr) << key;
    EXPECT_EQ(mali->gpu_limits().max_threads, 256);
    EXPECT_EQ(mali->gpu_limits().max_shared_bytes, 32 * 1024);
    EXPECT_GT(ExpectAllFit(*mali, mali->gpu_limits()), 0) << key;
    absl::StatusOr<space::Config> first = mali->DefaultConfig();
    ASSERT_TRUE(first.ok()) << first.status();
  }
}

TEST(TaskGpuLimitsTest, ADevicesReportedLimitsNarrowTheSpaceFurther) {
  std::unique_ptr<Task> task = GpuTask("matmul:256,256,256:float32", "opencl -device=adreno");
  ASSERT_NE(task, nullptr);
  absl::StatusOr<int64_t> before = task->space().CountValid(int64_t{1} << 26);
  ASSERT_TRUE(before.ok()) << before.status();
  ASSERT_TRUE(task->LimitGpuLaunches({64, 8 * 1024}).ok());
  EXPECT_EQ(task->gpu_limits().max_threads, 64);
  absl::StatusOr<int64_t> after = task->space().CountValid(int64_t{1} << 26);
  ASSERT_TRUE(after.ok()) << after.status();
  EXPECT_LT(*after, *before);
  EXPECT_GT(ExpectAllFit(*task, {64, 8 * 1024}), 0);
  // Wider limits than the profile's change nothing.
  ASSERT_TRUE(task->LimitGpuLaunches({4096, 1 << 20}).ok());
  EXPECT_EQ(task->gpu_limits().max_threads, 64);
}

TEST(TaskGpuLimitsTest, ACpuTaskHasNoLaunchConstraint) {
  absl::StatusOr<std::unique_ptr<Task>> task =
      CreateTask(*ParseWorkloadKey("matmul:64,64,64:float32"), target::Target::Host());
  ASSERT_TRUE(task.ok()) << task.status();
  const size_t constraints = (*task)->space().constraints().size();
  ASSERT_TRUE((*task)->LimitGpuLaunches({1, 1}).ok());
  EXPECT_EQ((*task)->space().constraints().size(), constraints);
}

}  // namespace
}  // namespace tunefarm::tuner
