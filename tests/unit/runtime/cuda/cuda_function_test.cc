// GPU tests: they load hand-written PTX and run it, and skip (GTEST_SKIP) without a driver/GPU.
#include "runtime/cuda/cuda_function.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <vector>

#include "runtime/ndarray.h"
#include "tests/testing/dl_types.h"

namespace tunefarm::runtime::cuda {
namespace {

using ::testing::HasSubstr;

using fixtures::kF32;

// C[i] = A[i] + B[i] for i < n, one thread per element (sm_75 and newer; checked with ptxas).
constexpr char kVaddPtx[] = R"(
.version 7.0
.target sm_75
.address_size 64

.visible .entry vadd(
  .param .u64 vadd_A,
  .param .u64 vadd_B,
  .param .u64 vadd_C,
  .param .u32 vadd_n
)
{
  .reg .pred %p<2>;
  .reg .b32 %r<6>;
  .reg .f32 %f<4>;
  .reg .b64 %rd<11>;

  ld.param.u64 %rd1, [vadd_A];
  ld.param.u64 %rd2, [vadd_B];
  ld.param.u64 %rd3, [vadd_C];
  ld.param.u32 %r1, [vadd_n];
  mov.u32 %r2, %ctaid.x;
  mov.u32 %r3, %ntid.x;
  mov.u32 %r4, %tid.x;
  mad.lo.s32 %r5, %r2, %r3, %r4;
  setp.ge.s32 %p1, %r5, %r1;
  @%p1 bra DONE;
  cvta.to.global.u64 %rd4, %rd1;
  cvta.to.global.u64 %rd5, %rd2;
  cvta.to.global.u64 %rd6, %rd3;
  mul.wide.s32 %rd7, %r5, 4;
  add.s64 %rd8, %rd4, %rd7;
  add.s64 %rd9, %rd5, %rd7;
  add.s64 %rd10, %rd6, %rd7;
  ld.global.f32 %f1, [%rd8];
  ld.global.f32 %f2, [%rd9];
  add.f32 %f3, %f1, %f2;
  st.global.f32 [%rd10], %f3;
DONE:
  ret;
}
)";

CudaLaunch VaddLaunch(const char* a, const char* b, const char* c) {
  CudaLaunch launch;
  launch.kernel = "vadd";
  launch.grid = {"floordiv(n + 127, 128)", "1", "1"};
  launch.block = {"128", "1", "1"};
  launch.params = {{KernelParam::Kind::kPointer, a},
                   {KernelParam::Kind::kPointer, b},
                   {KernelParam::Kind::kPointer, c},
                   {KernelParam::Kind::kInt32, "n"}};
  return launch;
}

CudaHostFunction VaddFunction(std::string name, std::vector<CudaLaunch> launches) {
  CudaHostFunction fn;
  fn.signature.name = std::move(name);
  for (const char* arg : {"A", "B", "C"}) {
    fn.signature.args.push_back({ArgKind::kTensor, arg, kF32, {DimSpec::Symbol("n")}});
  }
  fn.launches = std::move(launches);
  return fn;
}

CudaModuleImage VaddImage() {
  CudaModuleImage image;
  image.arch = "sm_75";
  image.ptx = kVaddPtx;
  image.functions.push_back(VaddFunction("vadd", {VaddLaunch("A", "B", "C")}));
  // C = A + B, then C = C + B: launches run in order.
  image.functions.push_back(
      VaddFunction("vadd_twice", {VaddLaunch("A", "B", "C"), VaddLaunch("C", "B", "C")}));
  return image;
}

NDArray Filled(int64_t n, float start, float step) {
  NDArray a = *NDArray::Empty({n}, kF32);
  auto* p = static_cast<float*>(a.data());
  for (int64_t i = 0; i < n; ++i) p[i] = start + step * static_cast<float>(i);
  return a;
}

class CudaFunctionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    absl::StatusOr<std::shared_ptr<CudaDevice>> device = CudaDevice::Open(0);
    if (!device.ok()) GTEST_SKIP() << "no CUDA device: " << device.status().message();
    device_ = *device;
    absl::StatusOr<std::shared_ptr<CudaLoadedModule>> module =
        CudaLoadedModule::Load(device_, VaddImage());
    ASSERT_TRUE(module.ok()) << module.status();
    module_ = *module;
  }

  CudaFunction Get(const char* name) {
    absl::StatusOr<CudaFunction> fn = module_->GetFunction(name);
    EXPECT_TRUE(fn.ok()) << fn.status();
    return *fn;
  }

  std::shared_ptr<CudaDevice> device_;
  std::shared_ptr<CudaLoadedModule> module_;
};

TEST_F(CudaFunctionTest, VectorAddMatchesReference) {
  for (int64_t n : {1, 128, 1000, 1 << 20}) {
    NDArray a = Filled(n, 1.5f, 0.25f);
    NDArray b = Filled(n, -3.0f, 0.5f);
    NDArray c = Filled(n, 99.0f, 0.0f);
    ASSERT_TRUE(Get("vadd").Call({&a, &b, &c}).ok()) << n;
    const auto* pa = static_cast<const float*>(a.data());
    const auto* pb = static_cast<const float*>(b.data());
    const auto* pc = static_cast<const float*>(c.data());
    for (int64_t i = 0; i < n; ++i) {
      ASSERT_NEAR(pc[i], pa[i] + pb[i], 1e-6f * (1 + std::abs(pa[i] + pb[i])))
          << "n=" << n << " i=" << i;
    }
  }
}

TEST_F(CudaFunctionTest, LaunchesRunInOrder) {
  NDArray a = Filled(300, 1.0f, 1.0f);
  NDArray b = Filled(300, 0.5f, 0.0f);
  NDArray c = Filled(300, 0.0f, 0.0f);
  ASSERT_TRUE(Get("vadd_twice").Call({&a, &b, &c}).ok());
  const auto* pc = static_cast<const float*>(c.data());
  for (int i = 0; i < 300; ++i) ASSERT_EQ(pc[i], static_cast<float>(i + 1) + 1.0f) << i;
}

TEST_F(CudaFunctionTest, ChecksArgumentsLikeCpuCalls) {
  NDArray a = Filled(64, 0, 1);
  NDArray b = Filled(65, 0, 1);
  NDArray c = Filled(64, 0, 1);
  absl::Status s = Get("vadd").Call({&a, &b, &c});
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(s.message()), HasSubstr("argument 1 (B)"));
  s = Get("vadd").Call({&a, &c});
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  NDArray i32 = *NDArray::Empty({64}, {kDLInt, 32, 1});
  s = Get("vadd").Call({&a, &c, &i32});
  EXPECT_THAT(std::string(s.message()), HasSubstr("argument 2 (C)"));
}

TEST_F(CudaFunctionTest, NonPositiveLaunchSizeIsInvalidArgument) {
  NDArray a = Filled(0, 0, 1);
  NDArray b = Filled(0, 0, 1);
  NDArray c = Filled(0, 0, 1);
  absl::Status s = Get("vadd").Call({&a, &b, &c});
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(s.message()), HasSubstr("grid.x = floordiv(n + 127, 128) = 0"));
}

TEST_F(CudaFunctionTest, UnknownFunctionAndKernelAreNotFound) {
  absl::StatusOr<CudaFunction> fn = module_->GetFunction("nope");
  EXPECT_EQ(fn.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(std::string(fn.status().message()), HasSubstr("vadd, vadd_twice"));

  CudaModuleImage image = VaddImage();
  image.functions[0].launches[0].kernel = "vmul";
  auto module = CudaLoadedModule::Load(device_, image);
  EXPECT_EQ(module.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(std::string(module.status().message()), HasSubstr("'vmul'"));
}

TEST_F(CudaFunctionTest, BadPtxReportsTheJitLog) {
  CudaModuleImage image = VaddImage();
  image.ptx = std::string(kVaddPtx).replace(image.ptx.find("add.f32"), 7, "bogus.f32");
  auto module = CudaLoadedModule::Load(device_, image);
  ASSERT_FALSE(module.ok());
  EXPECT_THAT(std::string(module.status().message()), HasSubstr("loading PTX"));
  EXPECT_THAT(std::string(module.status().message()), HasSubstr("bogus"));
}

TEST_F(CudaFunctionTest, TimesKernelsWithEvents) {
  const int64_t n = 1 << 22;
  NDArray a = Filled(n, 1, 0);
  NDArray b = Filled(n, 2, 0);
  NDArray c = Filled(n, 0, 0);
  TimeEvaluatorOptions options;
  options.number = 5;
  options.repeat = 3;
  absl::StatusOr<std::vector<double>> seconds = Get("vadd").Time({&a, &b, &c}, options);
  ASSERT_TRUE(seconds.ok()) << seconds.status();
  ASSERT_EQ(seconds->size(), 3u);
  for (double s : *seconds) {
    EXPECT_GT(s, 0);
    EXPECT_LT(s, 0.1);  // 48 MiB of traffic: microseconds on any GPU this runs on
  }
  EXPECT_EQ(static_cast<const float*>(c.data())[n - 1], 3.0f);

  // A repeat shorter than min_repeat_ms is rerun with more calls; the samples still come back.
  options.number = 1;
  options.repeat = 2;
  options.min_repeat_ms = 2;
  seconds = Get("vadd").Time({&a, &b, &c}, options);
  ASSERT_TRUE(seconds.ok()) << seconds.status();
  ASSERT_EQ(seconds->size(), 2u);
  EXPECT_GT((*seconds)[0], 0);

  options.number = 0;
  EXPECT_EQ(Get("vadd").Time({&a, &b, &c}, options).status().code(),
            absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace tunefarm::runtime::cuda
