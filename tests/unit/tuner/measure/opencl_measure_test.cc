// The local pipeline on an `opencl` target, measured on this machine's OpenCL device (PoCL here;
// skipped with the reason where there is none): candidates and their naive GPU reference are
// OpenCL modules, checked and timed in the measure child; a wrong kernel is a wrong answer and a
// launch over the device's work-group limit a runtime error naming the limit.
#include <fstream>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <iterator>
#include <random>

#include "compiler/space/config_sampler.h"
#include "runtime/devices/process_gpu.h"
#include "runtime/gpu/gpu_module.h"
#include "runtime/measure/measured_kernel.h"
#include "tuner/measure/local_builder.h"
#include "tuner/measure/local_runner.h"
#include "tuner/templates/template_registry.h"

namespace tunefarm::tuner {
namespace {

using ::testing::HasSubstr;

class OpenClMeasureTest : public ::testing::Test {
 protected:
  void SetUp() override {
    absl::StatusOr<std::shared_ptr<runtime::gpu::GpuDevice>> device =
        runtime::devices::ProcessGpuDevice(runtime::gpu::GpuApi::kOpenCl);
    if (!device.ok()) GTEST_SKIP() << "no OpenCL device: " << device.status().message();
    max_threads_ = (*device)->attributes().max_threads_per_block;
    MeasureOptions m;
    m.repeat = 2;
    m.min_repeat_ms = 1;
    LocalBuilderOptions b;
    b.measure = m;
    b.parallelism = 2;
    LocalRunnerOptions r;
    r.measure = m;
    r.device_key = "test-opencl";
    builder_ = *LocalBuilder::Create(b);
    runner_ = *LocalRunner::Create(r);
  }

  static std::unique_ptr<Task> OpenClTask(const std::string& key) {
    absl::StatusOr<std::unique_ptr<Task>> task =
        CreateTask(*ParseWorkloadKey(key), *target::ParseTarget("opencl -device=pocl"));
    EXPECT_TRUE(task.ok()) << task.status();
    return task.ok() ? *std::move(task) : nullptr;
  }

  // Rewrites the built module at `path` with `edit` applied to its first launch.
  static void EditFirstLaunch(const std::string& path,
                              const std::function<void(runtime::gpu::GpuLaunch&)>& edit) {
    std::ifstream in(path, std::ios::binary);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    absl::StatusOr<runtime::gpu::GpuModuleImage> image = runtime::gpu::ParseGpuModule(text);
    ASSERT_TRUE(image.ok()) << image.status();
    ASSERT_EQ(image->api, runtime::gpu::GpuApi::kOpenCl);
    edit(image->functions.at(0).launches.at(0));
    std::ofstream(path, std::ios::binary | std::ios::trunc)
        << runtime::gpu::SerializeGpuModule(*image);
  }

  int64_t max_threads_ = 0;
  std::unique_ptr<LocalBuilder> builder_;
  std::unique_ptr<LocalRunner> runner_;
};

TEST_F(OpenClMeasureTest, CandidatesAreCheckedAndTimedOnTheDevice) {
  std::unique_ptr<Task> task = OpenClTask("conv2d:1,8,14,14,16,3,3,1,1");
  ASSERT_NE(task, nullptr);
  std::vector<MeasureInput> inputs = {{task.get(), *task->DefaultConfig()}};
  std::mt19937_64 rng(5);
  for (int i = 0; i < 3; ++i)
    inputs.push_back({task.get(), *space::SampleValidConfig(task->space(), rng)});
  std::vector<BuildResult> builds = builder_->Build(inputs);
  for (const BuildResult& b : builds) {
    ASSERT_EQ(b.error_kind, ErrorKind::kOk) << b.error_message;
    EXPECT_THAT(b.library_path, ::testing::EndsWith(".opencl"));
    EXPECT_TRUE(runtime::measure::IsGpuModuleFile(b.library_path));
  }
  std::vector<MeasureResult> results = runner_->Run(inputs, builds, 0);
  ASSERT_EQ(results.size(), inputs.size());
  for (const MeasureResult& r : results) {
    ASSERT_EQ(r.error_kind, ErrorKind::kOk)
        << ErrorKindName(r.error_kind) << ": " << r.error_message;
    ASSERT_EQ(r.repeat_seconds.size(), 2u);
    for (double s : r.repeat_seconds) EXPECT_GT(s, 0);
  }
}

TEST_F(OpenClMeasureTest, AWrongKernelIsAWrongAnswer) {
  std::unique_ptr<Task> task = OpenClTask("matmul:64,48,40");
  ASSERT_NE(task, nullptr);
  std::vector<MeasureInput> inputs = {{task.get(), *task->DefaultConfig()}};
  std::vector<BuildResult> builds = builder_->Build(inputs);
  ASSERT_EQ(builds[0].error_kind, ErrorKind::kOk) << builds[0].error_message;
  // One block only: most of the output is never written.
  EditFirstLaunch(builds[0].library_path, [](runtime::gpu::GpuLaunch& l) {
    l.grid = {"1", "1", "1"};
  });
  std::vector<MeasureResult> results = runner_->Run(inputs, builds, 0);
  EXPECT_EQ(results[0].error_kind, ErrorKind::kWrongAnswer) << results[0].error_message;
}

TEST_F(OpenClMeasureTest, ALaunchOverTheDevicesWorkGroupLimitIsARuntimeErrorNamingIt) {
  std::unique_ptr<Task> task = OpenClTask("matmul:64,48,40");
  ASSERT_NE(task, nullptr);
  std::vector<MeasureInput> inputs = {{task.get(), *task->DefaultConfig()}};
  std::vector<BuildResult> builds = builder_->Build(inputs);
  ASSERT_EQ(builds[0].error_kind, ErrorKind::kOk) << builds[0].error_message;
  const int64_t over = max_threads_ * 2;
  EditFirstLaunch(builds[0].library_path, [over](runtime::gpu::GpuLaunch& l) {
    l.block = {std::to_string(over), "1", "1"};
  });
  std::vector<MeasureResult> results = runner_->Run(inputs, builds, 0);
  EXPECT_EQ(results[0].error_kind, ErrorKind::kRuntimeError) << results[0].error_message;
  EXPECT_THAT(results[0].error_message, HasSubstr("limit of " + std::to_string(max_threads_)));
}

}  // namespace
}  // namespace tunefarm::tuner
