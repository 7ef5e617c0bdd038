// The local pipeline on a `cuda` target: candidates and their naive GPU reference are built into
// CUDA modules with NVRTC (no GPU needed), and the runner measures them on this machine's GPU,
// or, without one, records why it cannot. On a GPU machine the same test checks real timings and
// that a wrong kernel is caught.
#include <filesystem>
#include <fstream>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <iterator>
#include <random>

#include "compiler/space/config_sampler.h"
#include "runtime/cuda/cuda_device.h"
#include "runtime/gpu/gpu_module.h"
#include "runtime/measure/measured_kernel.h"
#include "tuner/measure/local_builder.h"
#include "tuner/measure/local_runner.h"
#include "tuner/templates/template_registry.h"

namespace tunefarm::tuner {
namespace {

using ::testing::HasSubstr;

bool HaveGpu() { return runtime::cuda::CudaDevice::Open(0).ok(); }

std::unique_ptr<Task> CudaTask(const std::string& key) {
  absl::StatusOr<std::unique_ptr<Task>> task =
      CreateTask(*ParseWorkloadKey(key), *target::ParseTarget("cuda"));
  EXPECT_TRUE(task.ok()) << task.status();
  return task.ok() ? *std::move(task) : nullptr;
}

struct CudaPipeline {
  std::unique_ptr<LocalBuilder> builder;
  std::unique_ptr<LocalRunner> runner;
};

CudaPipeline MakeCudaPipeline() {
  MeasureOptions m;
  m.repeat = 2;
  m.min_repeat_ms = 1;
  LocalBuilderOptions b;
  b.measure = m;
  b.parallelism = 2;
  LocalRunnerOptions r;
  r.measure = m;
  r.device_key = "test-gpu";
  return {*LocalBuilder::Create(b), *LocalRunner::Create(r)};
}

std::vector<MeasureInput> DefaultAndSamples(const Task& task, int samples) {
  std::vector<MeasureInput> inputs = {{&task, *task.DefaultConfig()}};
  std::mt19937_64 rng(5);
  for (int i = 0; i < samples; ++i) {
    inputs.push_back({&task, *space::SampleValidConfig(task.space(), rng)});
  }
  return inputs;
}

TEST(CudaMeasureTest, CandidatesAndReferenceBuildIntoCudaModules) {
  std::unique_ptr<Task> task = CudaTask("conv2d:2,16,14,14,32,3,3,1,1");
  ASSERT_NE(task, nullptr);
  CudaPipeline p = MakeCudaPipeline();
  std::vector<MeasureInput> inputs = DefaultAndSamples(*task, 3);
  std::vector<BuildResult> builds = p.builder->Build(inputs);
  ASSERT_EQ(builds.size(), inputs.size());
  for (const BuildResult& b : builds) {
    ASSERT_EQ(b.error_kind, ErrorKind::kOk) << b.error_message;
    EXPECT_THAT(b.library_path, ::testing::EndsWith(".cuda"));
    EXPECT_TRUE(runtime::measure::IsGpuModuleFile(b.library_path));
    EXPECT_TRUE(runtime::measure::IsGpuModuleFile(b.reference_library_path));
    EXPECT_EQ(b.reference_library_path, builds[0].reference_library_path);
  }
}

TEST(CudaMeasureTest, RunnerMeasuresOnTheGpuOrSaysWhyNot) {
  std::unique_ptr<Task> task = CudaTask("matmul:100,72,36");
  ASSERT_NE(task, nullptr);
  CudaPipeline p = MakeCudaPipeline();
  std::vector<MeasureInput> inputs = DefaultAndSamples(*task, 2);
  std::vector<BuildResult> builds = p.builder->Build(inputs);
  std::vector<MeasureResult> results = p.runner->Run(inputs, builds, 0);
  ASSERT_EQ(results.size(), inputs.size());
  for (const MeasureResult& r : results) {
    if (!HaveGpu()) {
      EXPECT_EQ(r.error_kind, ErrorKind::kRuntimeError);
      EXPECT_THAT(r.error_message, HasSubstr("is a CUDA module, and this machine cannot run it"));
      continue;
    }
    ASSERT_EQ(r.error_kind, ErrorKind::kOk) << r.error_message;
    ASSERT_EQ(r.repeat_seconds.size(), 2u);
    for (double s : r.repeat_seconds) {
      EXPECT_GT(s, 0);
      EXPECT_LT(s, 0.01);  // a 100x72x36 matmul on a GPU: microseconds, not the copies' time
    }
  }
}

TEST(CudaMeasureTest, AWrongGpuKernelIsAWrongAnswer) {
  if (!HaveGpu()) GTEST_SKIP() << "no CUDA device: " << runtime::cuda::CudaDevice::Open(0).status();
  std::unique_ptr<Task> task = CudaTask("matmul:64,48,40");
  ASSERT_NE(task, nullptr);
  CudaPipeline p = MakeCudaPipeline();
  std::vector<MeasureInput> inputs = {{task.get(), *task->DefaultConfig()}};
  std::vector<BuildResult> builds = p.builder->Build(inputs);
  ASSERT_EQ(builds[0].error_kind, ErrorKind::kOk) << builds[0].error_message;
  // The candidate launched on one block only: most of the output is never written.
  std::ifstream in(builds[0].library_path, std::ios::binary);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  absl::StatusOr<runtime::gpu::GpuModuleImage> image = runtime::gpu::ParseGpuModule(text);
  ASSERT_TRUE(image.ok()) << image.status();
  image->functions.at(0).launches.at(0).grid = {"1", "1", "1"};
  std::ofstream(builds[0].library_path, std::ios::binary | std::ios::trunc)
      << runtime::gpu::SerializeGpuModule(*image);
  std::vector<MeasureResult> results = p.runner->Run(inputs, builds, 0);
  EXPECT_EQ(results[0].error_kind, ErrorKind::kWrongAnswer) << results[0].error_message;
  EXPECT_THAT(results[0].error_message, HasSubstr("expected"));
}

}  // namespace
}  // namespace tunefarm::tuner
