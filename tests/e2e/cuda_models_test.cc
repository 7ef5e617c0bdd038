// Real models for a GPU: torchvision's VGG-16 and ResNet-18 (random weights, exported to ONNX by
// Debian's python3-torch) built with `--target cuda`. Every kernel is generated as CUDA C,
// compiled to PTX by NVRTC and assembled by ptxas for sm_90 (no GPU needed); the module file is
// written and loaded. Where a GPU is present the module runs and must match PyTorch's CPU outputs
// within 1e-4 of their largest magnitude; elsewhere loading it must say that there is no GPU.
#include <filesystem>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <iostream>
#include <set>
#include <sstream>

#include "compiler/graph/gpu_model_export.h"
#include "driver/model_compiler.h"
#include "runtime/cuda/cuda_driver.h"
#include "tests/testing/exported_model_test.h"
#include "tools/commands/model_run_command.h"
#ifdef TUNEFARM_HAVE_CUDA
#include "compiler/codegen/cuda/nvrtc_compile.h"
#include "runtime/gpu/gpu_module.h"
#endif

namespace tunefarm::tools {
namespace {

using ::testing::AnyOf;
using ::testing::HasSubstr;

class CudaModelsTest : public fixtures::ExportedModelTest<std::string> {
 protected:
  void SetUp() override {
#ifndef TUNEFARM_HAVE_CUDA
    GTEST_SKIP() << "built without the CUDA toolkit";
#endif
    ExportedModelTest::SetUp();
  }
  driver::ModelCompileOptions CudaOptions() const {
    driver::ModelCompileOptions options;
    options.input_shapes["input"] = {1, 3, 224, 224};
    return options;
  }
};

TEST_P(CudaModelsTest, EveryKernelCompilesToPtxAndAssemblesWithPtxas) {
#ifdef TUNEFARM_HAVE_CUDA
  absl::StatusOr<driver::CompiledModel> model =
      driver::CompileModel(File(".onnx"), CudaOptions(), *target::ParseTarget("cuda"));
  ASSERT_TRUE(model.ok()) << model.status();
  // Convolutions take the GPU template with their epilogue fused; nothing is left unbuilt.
  int templated = 0;
  for (const graph::GroupKernel& k : model->built.kernels) {
    if (k.schedule.rfind("gpu conv2d template", 0) == 0) ++templated;
  }
  EXPECT_EQ(templated, GetParam() == "vgg16" ? 13 : 20);
  absl::StatusOr<std::string> text = graph::BuildGpuModelKernels(model->built);
  ASSERT_TRUE(text.ok()) << text.status();
  absl::StatusOr<runtime::gpu::GpuModuleImage> image = runtime::gpu::ParseGpuModule(*text);
  ASSERT_TRUE(image.ok()) << image.status();
  std::set<std::string> functions, launched;
  for (const runtime::gpu::GpuHostFunction& f : image->functions) {
    functions.insert(f.signature.name);
    for (const runtime::gpu::GpuLaunch& l : f.launches) launched.insert(l.kernel);
  }
  for (const runtime::GraphStep& step : model->built.graph.steps) {
    EXPECT_TRUE(functions.count(step.kernel)) << step.kernel;
  }
  absl::StatusOr<std::vector<codegen::cuda::KernelResources>> report =
      codegen::cuda::PtxasReport(image->code, image->arch);
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_EQ(report->size(), launched.size());
  for (const codegen::cuda::KernelResources& k : *report) {
    EXPECT_LE(k.registers, 255) << k.kernel;
    EXPECT_LE(k.shared_bytes, 48 * 1024) << k.kernel;
  }
#endif
}

TEST_P(CudaModelsTest, TheModuleRunsOnAGpuAndMatchesPytorchOrSaysThereIsNone) {
  const bool gpu = runtime::cuda::CudaDriver::Get().ok();
  if (!gpu && GetParam() == "vgg16") {
    GTEST_SKIP() << "no GPU: resnet18 checks what loading a CUDA module says without one";
  }
  const std::string module = ::testing::TempDir() + GetParam() + ".cuda.so";  // dir_ is shared
  {
    absl::StatusOr<driver::CompiledModel> model =
        driver::CompileModel(File(".onnx"), CudaOptions(), *target::ParseTarget("cuda"));
    ASSERT_TRUE(model.ok()) << model.status();
    absl::Status exported = driver::ExportCompiledModel(*model, module);
    ASSERT_TRUE(exported.ok()) << exported;
  }
  ModelRunOptions run;
  run.model = module;
  run.inputs = {"input=" + File(".input.npy")};
  run.expect = {File(".output.npy")};
  run.time = true;
  std::ostringstream out, err;
  const int rc = RunModelRunCommand(run, out, err);
  if (gpu) {
    EXPECT_EQ(rc, 0) << out.str() << err.str();
    EXPECT_THAT(out.str(), HasSubstr("max_abs_err="));
    std::cout << GetParam() << " on the GPU:\n" << out.str();
  } else {
    EXPECT_EQ(rc, 1);
    EXPECT_THAT(err.str(), AnyOf(HasSubstr("no NVIDIA driver"), HasSubstr("no CUDA device")));
  }
  std::filesystem::remove(module);
}

INSTANTIATE_TEST_SUITE_P(Models, CudaModelsTest, ::testing::Values("vgg16", "resnet18"));

}  // namespace
}  // namespace tunefarm::tools
