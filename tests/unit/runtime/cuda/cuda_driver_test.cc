#include "runtime/cuda/cuda_driver.h"

#include <dlfcn.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "runtime/cuda/cuda_device.h"

namespace tunefarm::runtime::cuda {
namespace {

using ::testing::AnyOf;
using ::testing::HasSubstr;
using ::testing::StartsWith;

bool DriverLibraryPresent() {
  void* lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (lib != nullptr) dlclose(lib);
  return lib != nullptr;
}

// Without a driver (CI, this build machine) every CUDA path reports "no GPU" cleanly.
TEST(CudaDriverTest, ReportsMissingDriverAsUnavailable) {
  if (DriverLibraryPresent()) GTEST_SKIP() << "libcuda.so.1 is present on this machine";
  absl::StatusOr<CudaDriver*> driver = CudaDriver::Get();
  ASSERT_FALSE(driver.ok());
  EXPECT_EQ(driver.status().code(), absl::StatusCode::kUnavailable);
  EXPECT_EQ(driver.status().message(), "no NVIDIA driver (libcuda.so.1 not found)");
  // Cached: the same answer again.
  EXPECT_EQ(CudaDriver::Get().status(), driver.status());

  absl::StatusOr<std::shared_ptr<CudaDevice>> device = CudaDevice::Open(0);
  ASSERT_FALSE(device.ok());
  EXPECT_EQ(device.status(), driver.status());
}

// Either way the answer is one of the two documented ones, or a working driver.
TEST(CudaDriverTest, GetIsUsableOrUnavailable) {
  absl::StatusOr<CudaDriver*> driver = CudaDriver::Get();
  if (!driver.ok()) {
    EXPECT_EQ(driver.status().code(), absl::StatusCode::kUnavailable);
    EXPECT_THAT(std::string(driver.status().message()),
                AnyOf(StartsWith("no NVIDIA driver"), StartsWith("no CUDA device"),
                      StartsWith("NVIDIA driver too old")));
    return;
  }
  EXPECT_GT((*driver)->device_count(), 0);
  // Error translation uses the driver's names: 1 is CUDA_ERROR_INVALID_VALUE.
  absl::Status s = (*driver)->Check(1, "cuSomething");
  EXPECT_EQ(s.code(), absl::StatusCode::kInternal);
  EXPECT_THAT(std::string(s.message()), HasSubstr("cuSomething: CUDA_ERROR_INVALID_VALUE"));
  EXPECT_TRUE((*driver)->Check(0, "ok").ok());

  absl::StatusOr<std::shared_ptr<CudaDevice>> bad = CudaDevice::Open(1000);
  EXPECT_EQ(bad.status().code(), absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace tunefarm::runtime::cuda
