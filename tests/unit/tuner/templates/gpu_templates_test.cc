// The GPU templates a `cuda` target gets: registered under the CPU ops' names, their naive GPU
// reference computes what the CPU template's reference computes, and the default and sampled
// configs compute what that reference does (both on the interpreter, which runs thread-bound
// loops block by block and switches threads only at barriers).
#include <gtest/gtest.h>

#include "compiler/interp/interpreter.h"
#include "tests/unit/tuner/templates/template_harness.h"
#include "tuner/templates/template_registry.h"

namespace tunefarm::tuner {
namespace {

const char* const kGpuKeys[] = {"matmul:37,29,23", "dense:19,27,33", "conv2d:2,5,11,13,7,3,3,1,1",
                                "conv2d:1,4,12,9,6,3,2,2,0", "depthwise_conv2d:2,6,9,11,3,3,1,1"};

std::unique_ptr<Task> GpuTask(const std::string& key, const std::string& text = "cuda") {
  absl::StatusOr<std::unique_ptr<Task>> task =
      CreateTask(*ParseWorkloadKey(key), *target::ParseTarget(text));
  EXPECT_TRUE(task.ok()) << key << ": " << task.status();
  return task.ok() ? *std::move(task) : nullptr;
}

absl::Status RunOnInterpreter(const topi::ScheduledOp& op, std::vector<runtime::NDArray>& arrays) {
  absl::StatusOr<ir::PrimFunc> f = passes::Lower(op.schedule, op.args, "kernel", {});
  if (!f.ok()) return f.status();
  std::vector<runtime::NDArray*> args;
  for (runtime::NDArray& a : arrays) args.push_back(&a);
  return interp::Run(*f, args);
}

TEST(GpuTemplatesTest, CudaTargetsGetTheGpuTemplates) {
  for (const char* key : kGpuKeys) {
    std::unique_ptr<Task> gpu = GpuTask(key);
    ASSERT_NE(gpu, nullptr);
    EXPECT_EQ(gpu->target().str(), "cuda -arch=sm_90");
    std::unique_ptr<Task> cpu = testing::MakeTask(key);
    ASSERT_NE(cpu, nullptr);
    // Another space: GPU axis knobs (blocks, vthreads, threads, registers), not the CPU's.
    const bool has_gpu_axis =
        gpu->space().KnobPosition("tile_x") >= 0 || gpu->space().KnobPosition("tile_n") >= 0;
    EXPECT_TRUE(has_gpu_axis) << key;
    EXPECT_NE(gpu->space().size(), cpu->space().size()) << key;
    EXPECT_DOUBLE_EQ(gpu->flops(), cpu->flops());
  }
  std::unique_ptr<Task> sm80 = GpuTask("matmul:64,64,64", "cuda -arch=sm_80");
  ASSERT_NE(sm80, nullptr);
  EXPECT_EQ(sm80->target().str(), "cuda -arch=sm_80");
}

TEST(GpuTemplatesTest, OpenClTargetsGetTheSameGpuTemplates) {
  for (const char* key : kGpuKeys) {
    std::unique_ptr<Task> cuda = GpuTask(key);
    std::unique_ptr<Task> opencl = GpuTask(key, "opencl -device=adreno");
    ASSERT_TRUE(cuda != nullptr && opencl != nullptr) << key;
    EXPECT_EQ(opencl->target().str(), "opencl -device=adreno");
    EXPECT_EQ(opencl->space().size(), cuda->space().size()) << key;
    EXPECT_DOUBLE_EQ(opencl->flops(), cuda->flops());
  }
}

TEST(GpuTemplatesTest, UnknownOpsAndBadArchsAreErrors) {
  absl::StatusOr<std::unique_ptr<Task>> task =
      CreateTask(*ParseWorkloadKey("conv2d_nchwc:1,8,8,8,8,3,3,1,1"), *target::ParseTarget("cuda"));
  ASSERT_FALSE(task.ok());
  EXPECT_NE(task.status().message().find("unknown template 'conv2d_nchwc' for cuda targets"),
            std::string::npos)
      << task.status();
  EXPECT_NE(task.status().message().find("depthwise_conv2d, matmul"), std::string::npos)
      << task.status();
  absl::StatusOr<target::Target> old_gpu = target::ParseTarget("cuda -arch=sm_50");
  ASSERT_FALSE(old_gpu.ok());
  EXPECT_NE(old_gpu.status().message().find("sm_50"), std::string::npos) << old_gpu.status();
}

TEST(GpuTemplatesTest, ReferenceMatchesTheCpuReference) {
  for (const char* key : kGpuKeys) {
    SCOPED_TRACE(key);
    std::unique_ptr<Task> gpu = GpuTask(key);
    std::unique_ptr<Task> cpu = testing::MakeTask(key);
    ASSERT_TRUE(gpu != nullptr && cpu != nullptr);
    absl::StatusOr<topi::ScheduledOp> ref = gpu->tmpl().Reference(*gpu->DefaultConfig());
    ASSERT_TRUE(ref.ok()) << ref.status();
    std::vector<runtime::NDArray> arrays = testing::MakeArgs(*ref);
    ASSERT_TRUE(RunOnInterpreter(*ref, arrays).ok());
    testing::ReferenceCache cpu_refs(*cpu);
    absl::StatusOr<const std::vector<runtime::NDArray>*> want = cpu_refs.For(*cpu->DefaultConfig());
    ASSERT_TRUE(want.ok()) << want.status();
    EXPECT_TRUE(testing::Close(arrays.back(), (*want)->back()));
  }
}

TEST(GpuTemplatesTest, SampledConfigsMatchTheReference) {
  for (const char* key : kGpuKeys) {
    std::unique_ptr<Task> task = GpuTask(key);
    ASSERT_NE(task, nullptr);
    absl::StatusOr<topi::ScheduledOp> ref = task->tmpl().Reference(*task->DefaultConfig());
    ASSERT_TRUE(ref.ok()) << ref.status();
    std::vector<runtime::NDArray> want = testing::MakeArgs(*ref);
    ASSERT_TRUE(RunOnInterpreter(*ref, want).ok());
    std::mt19937_64 rng(71);
    std::vector<space::Config> configs = {*task->DefaultConfig()};
    for (int i = 0; i < testing::SampleCount(3); ++i) {
      configs.push_back(*space::SampleValidConfig(task->space(), rng));
    }
    for (const space::Config& c : configs) {
      SCOPED_TRACE(absl::StrCat(key, " ", space::ConfigToJson(c)));
      absl::StatusOr<topi::ScheduledOp> op = task->Apply(c);
      ASSERT_TRUE(op.ok()) << op.status();
      std::vector<runtime::NDArray> got = testing::MakeArgs(*op);
      absl::Status st = RunOnInterpreter(*op, got);
      ASSERT_TRUE(st.ok()) << st;
      EXPECT_TRUE(testing::Close(got.back(), want.back()));
    }
  }
}

}  // namespace
}  // namespace tunefarm::tuner
