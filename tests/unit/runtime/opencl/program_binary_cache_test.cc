// The OpenCL program binary cache: files keyed by device and source that a later load takes
// instead of compiling; whatever is wrong with a file is a miss, never a wrong program. And, on
// this machine's OpenCL device (PoCL here; skipped without one), a second handle loads a program
// its first one compiled from the cache.
#include "runtime/opencl/program_binary_cache.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <unistd.h>

#include "runtime/opencl/opencl_device.h"

namespace tunefarm::runtime::opencl {
namespace {

std::string FreshDir(const std::string& name) {
  const std::string dir =
      ::testing::TempDir() + "/binary_cache_" + name + "_" + std::to_string(getpid());
  std::filesystem::remove_all(dir);
  return dir;
}

TEST(ProgramBinaryCacheTest, AStoredBinaryIsFoundForItsDeviceAndSourceOnly) {
  const std::string dir = FreshDir("roundtrip");
  ProgramBinaryCache cache(dir, "Mali-G610|ARM|v1.r40");
  EXPECT_FALSE(cache.Find("__kernel void k() {}").has_value());
  const std::string binary(
      "\x7f"
      "ELF\0\1\2 binary bytes",
      20);
  cache.Store("__kernel void k() {}", binary);
  EXPECT_EQ(cache.Find("__kernel void k() {}"), binary);
  EXPECT_FALSE(cache.Find("__kernel void k2() {}").has_value());
  // Another driver version of the same device: a miss.
  EXPECT_FALSE(ProgramBinaryCache(dir, "Mali-G610|ARM|v1.r41").Find("__kernel void k() {}"));
}

TEST(ProgramBinaryCacheTest, ATruncatedOrForeignFileIsAMiss) {
  const std::string dir = FreshDir("corrupt");
  ProgramBinaryCache cache(dir, "dev");
  cache.Store("src", "binary");
  const std::string path = cache.PathOf("src");
  std::string text;
  {
    std::ifstream in(path, std::ios::binary);
    text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  for (const std::string& bad :
       {text.substr(0, text.size() - 1), text + "x", std::string("garbage"), std::string()}) {
    std::ofstream(path, std::ios::binary | std::ios::trunc) << bad;
    EXPECT_FALSE(cache.Find("src").has_value()) << bad.size();
  }
}

TEST(ProgramBinaryCacheTest, NoDirectoryIsNoCache) {
  ProgramBinaryCache cache("", "dev");
  EXPECT_FALSE(cache.enabled());
  cache.Store("src", "binary");
  EXPECT_FALSE(cache.Find("src").has_value());
}

TEST(ProgramBinaryCacheTest, ASecondDeviceHandleLoadsTheCompiledProgramFromTheCache) {
  const std::string dir = FreshDir("device");
  absl::StatusOr<std::shared_ptr<OpenClDevice>> first = OpenClDevice::Open(0, 0, dir);
  if (!first.ok()) GTEST_SKIP() << "no OpenCL device: " << first.status().message();
  const std::string source =
      "__kernel void twice(__global float* a) { a[get_global_id(0)] *= 2.0f; }\n";
  ASSERT_TRUE((*first)->BuildProgram(source).ok());
  EXPECT_EQ((*first)->programs_from_binary_cache(), 0);
  absl::StatusOr<std::shared_ptr<OpenClDevice>> second = OpenClDevice::Open(0, 0, dir);
  ASSERT_TRUE(second.ok()) << second.status();
  absl::StatusOr<cl_program> program = (*second)->BuildProgram(source);
  ASSERT_TRUE(program.ok()) << program.status();
  EXPECT_EQ((*second)->programs_from_binary_cache(), 1);
  // The cached program runs.
  absl::StatusOr<gpu::DeviceBuffer> buffer = (*second)->Allocate(4 * sizeof(float));
  ASSERT_TRUE(buffer.ok());
  const float in[4] = {1, 2, 3, 4};
  ASSERT_TRUE(buffer->CopyFromHost(in, sizeof(in)).ok());
  gpu::GpuModuleImage image;
  image.api = gpu::GpuApi::kOpenCl;
  image.code = source;
  absl::StatusOr<std::shared_ptr<gpu::LoadedCode>> code = (*second)->Load(image);
  ASSERT_TRUE(code.ok()) << code.status();
  absl::StatusOr<void*> kernel = (*code)->Kernel("twice");
  ASSERT_TRUE(kernel.ok()) << kernel.status();
  gpu::LaunchDims dims;
  dims.block = {4, 1, 1};
  gpu::KernelArg arg;
  arg.handle = buffer->handle();
  arg.size = buffer->size();
  ASSERT_TRUE((*second)->Launch(*kernel, dims, {arg}).ok());
  float out[4] = {};
  ASSERT_TRUE(buffer->CopyToHost(out, sizeof(out)).ok());
  EXPECT_EQ(out[3], 8.0f);
}

}  // namespace
}  // namespace tunefarm::runtime::opencl
