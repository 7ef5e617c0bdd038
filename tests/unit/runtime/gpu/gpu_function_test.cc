// GpuFunction on each implementation of the device API: the same vector add as hand-written PTX
// (CUDA; skipped without a driver and GPU) and OpenCL C (skipped without an OpenCL platform; PoCL
// gives one on any CPU).
#include "runtime/gpu/gpu_function.h"

#include <algorithm>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <vector>

#include "runtime/devices/process_gpu.h"
#include "runtime/ndarray.h"
#include "tests/testing/dl_types.h"

namespace tunefarm::runtime::gpu {
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

// The same kernel in OpenCL C.
constexpr char kVaddOpenCl[] = R"(
__kernel void vadd(__global const float* restrict A, __global const float* restrict B,
                   __global float* restrict C, int n) {
  const int i = (int)(get_group_id(0) * get_local_size(0) + get_local_id(0));
  if (i < n) C[i] = A[i] + B[i];
}
)";

GpuLaunch VaddLaunch(const char* a, const char* b, const char* c) {
  GpuLaunch launch;
  launch.kernel = "vadd";
  launch.grid = {"floordiv(n + 127, 128)", "1", "1"};
  launch.block = {"128", "1", "1"};
  launch.params = {{KernelParam::Kind::kPointer, a},
                   {KernelParam::Kind::kPointer, b},
                   {KernelParam::Kind::kPointer, c},
                   {KernelParam::Kind::kInt32, "n"}};
  return launch;
}

GpuHostFunction VaddFunction(std::string name, std::vector<GpuLaunch> launches) {
  GpuHostFunction fn;
  fn.signature.name = std::move(name);
  for (const char* arg : {"A", "B", "C"}) {
    fn.signature.args.push_back({ArgKind::kTensor, arg, kF32, {DimSpec::Symbol("n")}});
  }
  fn.launches = std::move(launches);
  return fn;
}

GpuModuleImage VaddImage(GpuApi api) {
  GpuModuleImage image;
  image.api = api;
  image.arch = api == GpuApi::kCuda ? "sm_75" : "generic";
  image.code = api == GpuApi::kCuda ? kVaddPtx : kVaddOpenCl;
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

class GpuFunctionTest : public ::testing::TestWithParam<GpuApi> {
 protected:
  void SetUp() override {
    absl::StatusOr<std::shared_ptr<GpuDevice>> device = devices::ProcessGpuDevice(GetParam());
    if (!device.ok()) {
      GTEST_SKIP() << "no " << GpuApiName(GetParam()) << " device: " << device.status().message();
    }
    device_ = *device;
    absl::StatusOr<std::shared_ptr<GpuLoadedModule>> module =
        GpuLoadedModule::Load(device_, VaddImage(GetParam()));
    ASSERT_TRUE(module.ok()) << module.status();
    module_ = *module;
  }

  GpuFunction Get(const char* name) {
    absl::StatusOr<GpuFunction> fn = module_->GetFunction(name);
    EXPECT_TRUE(fn.ok()) << fn.status();
    return *fn;
  }

  std::shared_ptr<GpuDevice> device_;
  std::shared_ptr<GpuLoadedModule> module_;
};

INSTANTIATE_TEST_SUITE_P(Apis, GpuFunctionTest, ::testing::Values(GpuApi::kCuda, GpuApi::kOpenCl),
                         [](const ::testing::TestParamInfo<GpuApi>& info) {
                           return std::string(GpuApiName(info.param));
                         });

TEST_P(GpuFunctionTest, VectorAddMatchesReference) {
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

TEST_P(GpuFunctionTest, LaunchesRunInOrder) {
  NDArray a = Filled(300, 1.0f, 1.0f);
  NDArray b = Filled(300, 0.5f, 0.0f);
  NDArray c = Filled(300, 0.0f, 0.0f);
  ASSERT_TRUE(Get("vadd_twice").Call({&a, &b, &c}).ok());
  const auto* pc = static_cast<const float*>(c.data());
  for (int i = 0; i < 300; ++i) ASSERT_EQ(pc[i], static_cast<float>(i + 1) + 1.0f) << i;
}

TEST_P(GpuFunctionTest, ChecksArgumentsLikeCpuCalls) {
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

TEST_P(GpuFunctionTest, NonPositiveLaunchSizeIsInvalidArgument) {
  NDArray a = Filled(0, 0, 1);
  NDArray b = Filled(0, 0, 1);
  NDArray c = Filled(0, 0, 1);
  absl::Status s = Get("vadd").Call({&a, &b, &c});
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(s.message()), HasSubstr("grid.x = floordiv(n + 127, 128) = 0"));
}

TEST_P(GpuFunctionTest, UnknownFunctionAndKernelAreNotFound) {
  absl::StatusOr<GpuFunction> fn = module_->GetFunction("nope");
  EXPECT_EQ(fn.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(std::string(fn.status().message()), HasSubstr("vadd, vadd_twice"));

  GpuModuleImage image = VaddImage(GetParam());
  image.functions[0].launches[0].kernel = "vmul";
  auto module = GpuLoadedModule::Load(device_, image);
  EXPECT_EQ(module.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(std::string(module.status().message()), HasSubstr("'vmul'"));
}

TEST_P(GpuFunctionTest, BadDeviceCodeReportsTheCompilersLog) {
  GpuModuleImage image = VaddImage(GetParam());
  if (GetParam() == GpuApi::kCuda) {
    image.code = std::string(kVaddPtx).replace(image.code.find("add.f32"), 7, "bogus.f32");
  } else {
    image.code =
        std::string(kVaddOpenCl).replace(image.code.find("A[i] + B[i]"), 11, "bogus(A[i])");
  }
  auto module = GpuLoadedModule::Load(device_, image);
  ASSERT_FALSE(module.ok());
  EXPECT_THAT(std::string(module.status().message()),
              HasSubstr(GetParam() == GpuApi::kCuda ? "loading PTX" : "refused the program"));
  EXPECT_THAT(std::string(module.status().message()), HasSubstr("bogus"));
}

TEST_P(GpuFunctionTest, AModuleOfTheOtherApiIsRefused) {
  const GpuApi other = GetParam() == GpuApi::kCuda ? GpuApi::kOpenCl : GpuApi::kCuda;
  auto module = GpuLoadedModule::Load(device_, VaddImage(other));
  EXPECT_EQ(module.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(std::string(module.status().message()), HasSubstr("cannot be loaded"));
}

TEST_P(GpuFunctionTest, AWorkGroupOverTheDevicesLimitIsRefusedNamingTheLimit) {
  const int64_t limit = device_->attributes().max_threads_per_block;
  ASSERT_GT(limit, 0);
  GpuModuleImage image = VaddImage(GetParam());
  image.functions[0].launches[0].block = {std::to_string(limit * 2), "1", "1"};
  auto module = GpuLoadedModule::Load(device_, image);
  ASSERT_TRUE(module.ok()) << module.status();
  NDArray a = Filled(64, 0, 1);
  NDArray b = Filled(64, 0, 1);
  NDArray c = Filled(64, 0, 1);
  absl::Status s = (*module)->GetFunction("vadd")->Call({&a, &b, &c});
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(s.message()), HasSubstr(std::to_string(limit)));
  EXPECT_THAT(std::string(s.message()), HasSubstr("limit"));
}

TEST_P(GpuFunctionTest, TheDeviceReportsItsAttributes) {
  const DeviceAttributes& a = device_->attributes();
  EXPECT_FALSE(a.name.empty());
  EXPECT_GT(a.compute_units, 0);
  EXPECT_GT(a.max_threads_per_block, 0);
  EXPECT_GT(a.max_shared_bytes, 0);
  EXPECT_GT(a.global_memory_bytes, 0);
  EXPECT_FALSE(a.driver_version.empty());
}

TEST_P(GpuFunctionTest, BuffersCopyBothWaysAtOffsets) {
  absl::StatusOr<DeviceBuffer> buffer = device_->Allocate(4096);
  ASSERT_TRUE(buffer.ok()) << buffer.status();
  std::vector<unsigned char> in(1024), out(1024, 0);
  for (size_t i = 0; i < in.size(); ++i) in[i] = static_cast<unsigned char>(i * 7);
  ASSERT_TRUE(buffer->CopyFromHost(in.data(), in.size(), 2048).ok());
  ASSERT_TRUE(buffer->CopyToHost(out.data(), out.size(), 2048).ok());
  EXPECT_EQ(in, out);
  EXPECT_EQ(buffer->CopyFromHost(in.data(), in.size(), 3500).code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(buffer->CopyToHost(out.data(), 8, 5000).code(), absl::StatusCode::kInvalidArgument);
}

TEST_P(GpuFunctionTest, DeviceCallsUseTensorsAtOffsetsIntoOneBuffer) {
  // A graph executor's arena: three tensors of n floats at aligned offsets in one buffer.
  const int64_t n = 300;
  const size_t align =
      static_cast<size_t>(std::max<int64_t>(256, device_->attributes().view_alignment_bytes));
  const size_t stride = (n * sizeof(float) + align - 1) / align * align;
  absl::StatusOr<DeviceBuffer> arena = device_->Allocate(3 * stride);
  ASSERT_TRUE(arena.ok()) << arena.status();
  NDArray a = Filled(n, 1, 1);
  NDArray b = Filled(n, 10, 0);
  ASSERT_TRUE(arena->CopyFromHost(a.data(), n * sizeof(float), 0).ok());
  ASSERT_TRUE(arena->CopyFromHost(b.data(), n * sizeof(float), stride).ok());
  int64_t shape[1] = {n};
  std::vector<DLTensor> t(3);
  for (int i = 0; i < 3; ++i) {
    t[i] = DLTensor{};
    t[i].data = reinterpret_cast<void*>(arena->handle());
    t[i].byte_offset = i * stride;
    t[i].device =
        DLDevice{static_cast<DLDeviceType>(device_->dl_device_type()), device_->ordinal()};
    t[i].ndim = 1;
    t[i].dtype = kF32;
    t[i].shape = shape;
  }
  absl::StatusOr<GpuDeviceCall> call = Get("vadd").PrepareDeviceCall({&t[0], &t[1], &t[2]});
  ASSERT_TRUE(call.ok()) << call.status();
  ASSERT_TRUE(call->Launch().ok());
  ASSERT_TRUE(device_->Synchronize().ok());
  std::vector<float> c(n);
  ASSERT_TRUE(arena->CopyToHost(c.data(), n * sizeof(float), 2 * stride).ok());
  for (int64_t i = 0; i < n; ++i) ASSERT_EQ(c[i], static_cast<float>(i + 1) + 10.0f) << i;

  // A host tensor is not a device tensor.
  NDArray host = Filled(n, 0, 0);
  EXPECT_EQ(Get("vadd").PrepareDeviceCall({&t[0], &t[1], &host}).status().code(),
            absl::StatusCode::kInvalidArgument);
}

TEST_P(GpuFunctionTest, TimesKernelsOnTheDevice) {
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
}  // namespace tunefarm::runtime::gpu
