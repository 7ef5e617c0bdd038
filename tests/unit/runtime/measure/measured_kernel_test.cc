// MeasuredKernel: a shared library loads as a CPU kernel (its only function when none is named),
// a CUDA module is told apart by its header and needs a GPU, and load errors name the file.
#include "runtime/measure/measured_kernel.h"

#include <cstdio>
#include <fstream>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "runtime/cuda/cuda_device.h"
#include "runtime/gpu/gpu_module.h"
#include "tests/unit/runtime/measure/measure_test_kernels.h"

namespace tunefarm::runtime::measure {
namespace {

using ::testing::HasSubstr;

TEST(MeasuredKernelTest, ASharedLibraryIsACpuKernel) {
  const std::string path = testing::ScratchLibrary("measured_cpu");
  ASSERT_EQ(testing::ExportAddKernel(path, "add", 2.0f), "");
  EXPECT_FALSE(IsGpuModuleFile(path));
  absl::StatusOr<MeasuredKernel> k = MeasuredKernel::Load(path, "");  // its only function
  ASSERT_TRUE(k.ok()) << k.status();
  EXPECT_FALSE(k->on_gpu());
  EXPECT_EQ(k->signature().name, "add");
  EXPECT_EQ(k->TimeOnDevice({}, {}).status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_FALSE(MeasuredKernel::Load(path, "sub").ok());
  std::remove(path.c_str());
}

TEST(MeasuredKernelTest, ACudaModuleNeedsAGpu) {
  const std::string path = testing::ScratchLibrary("measured_gpu") + ".cuda";
  gpu::GpuModuleImage image;
  image.arch = "sm_90";
  image.code = ".version 8.0\n.target sm_90\n.address_size 64\n";
  std::ofstream(path, std::ios::binary) << gpu::SerializeGpuModule(image);
  EXPECT_TRUE(IsGpuModuleFile(path));
  absl::StatusOr<MeasuredKernel> k = MeasuredKernel::Load(path, "");
  ASSERT_FALSE(k.ok());
  if (!cuda::CudaDevice::Open(0).ok()) {
    EXPECT_EQ(k.status().code(), absl::StatusCode::kUnavailable);
    EXPECT_THAT(k.status().message(),
                HasSubstr("is a CUDA module, and this machine cannot run it"));
  } else {
    EXPECT_THAT(k.status().message(), HasSubstr(path));  // no functions to pick from
  }
  std::remove(path.c_str());
}

TEST(MeasuredKernelTest, MissingAndGarbledFilesNameThePath) {
  absl::StatusOr<MeasuredKernel> missing = MeasuredKernel::Load("/nonexistent/k.so", "k");
  ASSERT_FALSE(missing.ok());
  EXPECT_THAT(missing.status().message(), HasSubstr("/nonexistent/k.so"));
  const std::string path = testing::ScratchLibrary("measured_garbled") + ".cuda";
  std::ofstream(path, std::ios::binary) << "tunefarm-cuda-module 1\narch 3\nsm_";
  absl::StatusOr<MeasuredKernel> garbled = MeasuredKernel::Load(path, "");
  ASSERT_FALSE(garbled.ok());
  EXPECT_EQ(garbled.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(garbled.status().message(), HasSubstr(path));
  std::remove(path.c_str());
}

}  // namespace
}  // namespace tunefarm::runtime::measure
