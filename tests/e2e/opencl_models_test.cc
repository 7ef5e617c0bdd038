// A model built with `--target opencl`: a small CNN (conv, bias, ReLU, max-pool, dense, softmax)
// imported from ONNX, built into one module whose kernels are OpenCL C, loaded by the GPU graph
// executor on this machine's OpenCL device (PoCL here; skipped without one) and run against the
// CPU build of the same file on the same input.
#include <cmath>
#include <filesystem>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <random>
#include <sstream>

#include "driver/model_compiler.h"
#include "driver/model_executor.h"
#include "runtime/devices/process_gpu.h"
#include "tests/e2e/small_cnn_onnx.h"
#include "tests/testing/files.h"
#include "tools/commands/model_tune_command.h"

namespace tunefarm::driver {
namespace {

std::string SmallCnn() { return fixtures::SmallCnnOnnx("opencl_small_cnn.onnx"); }

std::vector<float> RunModule(const std::string& path, const std::vector<float>& input,
                             std::string* device) {
  absl::StatusOr<std::unique_ptr<ModelExecutor>> executor = OpenModelModule(path);
  EXPECT_TRUE(executor.ok()) << executor.status();
  if (!executor.ok()) return {};
  *device = (*executor)->device();
  EXPECT_TRUE((*executor)->SetInput(0, input.data(), input.size() * sizeof(float)).ok());
  absl::Status run = (*executor)->Run();
  EXPECT_TRUE(run.ok()) << run;
  absl::StatusOr<const DLTensor*> out = (*executor)->Output(0);
  EXPECT_TRUE(out.ok()) << out.status();
  if (!out.ok()) return {};
  const auto* data = static_cast<const float*>((*out)->data);
  return std::vector<float>(data, data + 10);
}

// Both modules on the same random input (seeded): the GPU one's outputs must be the CPU one's
// within float32 rounding of a different summation order. Returns the GPU module's device name.
std::string ExpectSameOutputs(const std::string& gpu_module, const std::string& cpu_module,
                              unsigned seed) {
  std::vector<float> input(3 * 16 * 16);
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> uniform(-1, 1);
  for (float& v : input) v = uniform(rng);
  std::string cpu_device, gpu_device;
  std::vector<float> want = RunModule(cpu_module, input, &cpu_device);
  std::vector<float> got = RunModule(gpu_module, input, &gpu_device);
  EXPECT_EQ(got.size(), want.size());
  float sum = 0;
  for (size_t i = 0; i < want.size() && i < got.size(); ++i) {
    EXPECT_NEAR(got[i], want[i], 1e-5f + 1e-4f * std::fabs(want[i])) << i;
    sum += got[i];
  }
  EXPECT_NEAR(sum, 1.0f, 1e-4f);  // a softmax
  return gpu_device;
}

TEST(OpenClModelsTest, ASmallCnnBuiltForOpenClMatchesTheCpuBuild) {
  absl::StatusOr<std::shared_ptr<runtime::gpu::GpuDevice>> device =
      runtime::devices::ProcessGpuDevice(runtime::gpu::GpuApi::kOpenCl);
  if (!device.ok()) GTEST_SKIP() << "no OpenCL device: " << device.status().message();
  const std::string onnx = SmallCnn();
  const std::string dir = std::filesystem::path(onnx).parent_path().string();
  const std::string cpu_module = dir + "/small_cnn.cpu.so";
  const std::string gpu_module = dir + "/small_cnn.opencl.so";
  for (const auto& [text, path] : std::vector<std::pair<std::string, std::string>>{
           {"llvm", cpu_module}, {"opencl -device=pocl", gpu_module}}) {
    absl::StatusOr<CompiledModel> model =
        CompileModel(onnx, ModelCompileOptions(), *target::ParseTarget(text));
    ASSERT_TRUE(model.ok()) << text << ": " << model.status();
    absl::Status exported = ExportCompiledModel(*model, path);
    ASSERT_TRUE(exported.ok()) << text << ": " << exported;
  }
  EXPECT_EQ(ExpectSameOutputs(gpu_module, cpu_module, 5), (*device)->attributes().name);
}

TEST(OpenClModelsTest, AModelTunedOnOpenClBuildsWithItsRecordsAndStillMatchesTheCpuBuild) {
  absl::StatusOr<std::shared_ptr<runtime::gpu::GpuDevice>> device =
      runtime::devices::ProcessGpuDevice(runtime::gpu::GpuApi::kOpenCl);
  if (!device.ok()) GTEST_SKIP() << "no OpenCL device: " << device.status().message();
  const std::string onnx = SmallCnn();
  const std::string dir = std::filesystem::path(onnx).parent_path().string();
  tools::ModelTuneOptions tune;
  tune.file = onnx;
  tune.tune.target = "opencl -device=pocl";
  tune.tune.trials = 4;
  tune.tune.batch_size = 4;
  tune.tune.tuner = "random";
  tune.tune.db = dir + "/opencl_model.db";
  tune.tune.device_key = "pocl-test";
  std::ostringstream out, err;
  ASSERT_EQ(tools::RunModelTuneCommand(tune, nullptr, out, err), 0) << out.str() << err.str();
  EXPECT_NE(out.str().find("--target \"opencl -device=pocl\""), std::string::npos) << out.str();

  ModelCompileOptions with_records;
  with_records.db = tune.tune.db;
  with_records.device_key = "pocl-test";
  absl::StatusOr<CompiledModel> tuned =
      CompileModel(onnx, with_records, *target::ParseTarget("opencl -device=pocl"));
  ASSERT_TRUE(tuned.ok()) << tuned.status();
  int from_records = 0;
  for (const graph::GroupKernel& k : tuned->built.kernels) {
    from_records += k.schedule.rfind("gpu conv2d template, tuned", 0) == 0 ? 1 : 0;
  }
  EXPECT_EQ(from_records, 1);
  const std::string gpu_module = dir + "/small_cnn.tuned.opencl.so";
  const std::string cpu_module = dir + "/small_cnn.tuned.cpu.so";
  ASSERT_TRUE(ExportCompiledModel(*tuned, gpu_module).ok());
  absl::StatusOr<CompiledModel> cpu =
      CompileModel(onnx, ModelCompileOptions(), *target::ParseTarget("llvm"));
  ASSERT_TRUE(cpu.ok()) << cpu.status();
  ASSERT_TRUE(ExportCompiledModel(*cpu, cpu_module).ok());
  ExpectSameOutputs(gpu_module, cpu_module, 9);
}

}  // namespace
}  // namespace tunefarm::driver
