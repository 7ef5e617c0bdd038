// Numbers from the generated CUDA without a GPU: the CUDA C that BuildCuda compiles, run on the
// CPU through host_emulation.h (real threads per block, a real barrier for __syncthreads), against
// naive references. Checks indexing, guards, shared-memory fills and barriers, float2 accesses.
#include "tests/unit/compiler/codegen/cuda/host_emulation.h"

#include <cmath>
#include <gtest/gtest.h>
#include <random>

#include "compiler/codegen/cuda/build_cuda.h"
#include "runtime/gpu/gpu_module.h"
#include "tests/unit/compiler/codegen/cuda/cuda_test_util.h"
#include "tests/unit/compiler/codegen/cuda/emulation_check.h"

namespace tunefarm::codegen::cuda {
namespace {

std::vector<float> Random(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<float> v(n);
  for (float& x : v) x = dist(rng);
  return v;
}

struct Built {
  runtime::gpu::GpuLaunch launch;
  std::array<unsigned, 3> grid{};
  std::array<unsigned, 3> block{};
  std::string ptx;
  std::optional<EmulatedModule> module;
};

// Lowers and builds `script` (so NVRTC accepts the same source), then compiles it for the host.
void Build(const std::string& script, const std::string& name,
           const std::map<std::string, int64_t>& values, Built* out) {
  absl::StatusOr<ir::PrimFunc> f = LowerScriptForCuda(script, name);
  ASSERT_TRUE(f.ok()) << f.status();
  absl::StatusOr<runtime::gpu::GpuModuleImage> image =
      BuildCuda(*f, *target::ParseCudaTarget("cuda"));
  ASSERT_TRUE(image.ok()) << image.status();
  ASSERT_EQ(image->functions[0].launches.size(), 1u);
  out->launch = image->functions[0].launches[0];
  out->ptx = image->code;
  for (int d = 0; d < 3; ++d) {
    absl::StatusOr<int64_t> g = runtime::gpu::EvalLaunchExpr(out->launch.grid[d], values);
    absl::StatusOr<int64_t> b = runtime::gpu::EvalLaunchExpr(out->launch.block[d], values);
    ASSERT_TRUE(g.ok() && b.ok());
    out->grid[d] = static_cast<unsigned>(*g);
    out->block[d] = static_cast<unsigned>(*b);
  }
  absl::StatusOr<std::string> source = GenerateCudaSource({*f});
  ASSERT_TRUE(source.ok()) << source.status();
  absl::StatusOr<EmulatedModule> m = EmulatedModule::Compile(*source);
  ASSERT_TRUE(m.ok()) << m.status();
  out->module.emplace(std::move(*m));
}

TEST(HostEmulationTest, SplitBindAddsWithTheTailGuarded) {
  const int n = 1000;
  Built b;
  ASSERT_NO_FATAL_FAILURE(Build(kSplitBind, "vadd", {{"n", n}}, &b));
  EXPECT_EQ(b.grid[0], 16u);
  EXPECT_EQ(b.block[0], 64u);
  using Fn = void(const float*, const float*, float*, int);
  Fn* kernel = b.module->Kernel<Fn>("vadd_kernel0");
  ASSERT_NE(kernel, nullptr);
  std::vector<float> a = Random(n, 1), bb = Random(n, 2);
  std::vector<float> c(n + 64, 7.0f);  // room past the end: the guard must keep it untouched
  b.module->Launch(b.grid, b.block, [&] { kernel(a.data(), bb.data(), c.data(), n); });
  for (int i = 0; i < n; ++i) ASSERT_FLOAT_EQ(c[i], a[i] + bb[i]) << i;
  for (int i = n; i < n + 64; ++i) ASSERT_EQ(c[i], 7.0f) << i;
}

TEST(HostEmulationTest, SharedMemoryMatmulMatchesTheReference) {
  const int n = 64;
  Built b;
  ASSERT_NO_FATAL_FAILURE(Build(kSharedMatmul, "mm_shared", {}, &b));
  using Fn = void(const float*, const float*, float*);
  Fn* kernel = b.module->Kernel<Fn>("mm_shared_kernel0");
  ASSERT_NE(kernel, nullptr);
  std::vector<float> a = Random(n * n, 3), w = Random(n * n, 4), c(n * n, 0.0f);
  b.module->Launch(b.grid, b.block, [&] { kernel(a.data(), w.data(), c.data()); });
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      double ref = 0;
      for (int k = 0; k < n; ++k) ref += double(a[i * n + k]) * w[k * n + j];
      ASSERT_NEAR(c[i * n + j], ref, 1e-4) << i << "," << j;
    }
  }
}

// Four consecutive elements per thread, vectorized: float4 loads and store, in the PTX too.
TEST(HostEmulationTest, VectorizedElementwiseUsesFloat4) {
  const int n = 1024;
  Built b;
  ASSERT_NO_FATAL_FAILURE(Build(testing::kVectorized, "vmuladd", {}, &b));
  EXPECT_EQ(b.grid[0], 4u);
  EXPECT_EQ(b.block[0], 64u);
  EXPECT_NE(b.ptx.find("ld.global.nc.v4.f32"), std::string::npos) << b.ptx;
  EXPECT_NE(b.ptx.find("st.global.v4.f32"), std::string::npos) << b.ptx;
  using Fn = void(const float*, const float*, float*);
  Fn* kernel = b.module->Kernel<Fn>("vmuladd_kernel0");
  ASSERT_NE(kernel, nullptr);
  std::vector<float> a = Random(n, 7), w = Random(n, 8), c(n, 0.0f);
  b.module->Launch(b.grid, b.block, [&] { kernel(a.data(), w.data(), c.data()); });
  for (int i = 0; i < n; ++i) ASSERT_NEAR(c[i], a[i] * w[i] + 1.0f, 1e-6) << i;
}

TEST(HostEmulationTest, TwoStagesAreTwoKernelsInOrder) {
  absl::StatusOr<ir::PrimFunc> f = LowerScriptForCuda(TwoStages("[A, B, C]"), "two");
  ASSERT_TRUE(f.ok()) << f.status();
  absl::StatusOr<runtime::gpu::GpuModuleImage> image =
      BuildCuda(*f, *target::ParseCudaTarget("cuda"));
  ASSERT_TRUE(image.ok()) << image.status();
  const std::vector<runtime::gpu::GpuLaunch>& launches = image->functions[0].launches;
  ASSERT_EQ(launches.size(), 2u);
  EXPECT_EQ(launches[0].kernel, "two_kernel0");
  EXPECT_EQ(launches[0].grid[0], "4");
  EXPECT_EQ(launches[0].block[0], "64");
  EXPECT_EQ(launches[1].kernel, "two_kernel1");
  EXPECT_EQ(launches[1].grid[0], "8");
  EXPECT_EQ(launches[1].block[0], "32");
  ASSERT_EQ(launches[1].params.size(), 2u);  // B and C: the second kernel does not read A
  EXPECT_EQ(launches[1].params[0].name, "B");
  ExpectEmulationMatchesInterpreter(*f, {});
}

// examples/conv2d_gpu.te (HWCN, 3x3, pad 1): shared tiles filled with float2, virtual threads.
TEST(HostEmulationTest, Conv2dExampleMatchesTheReference) {
  const std::string script = ReadFile(std::string(TUNEFARM_SOURCE_DIR) + "/examples/conv2d_gpu.te");
  Built b;
  ASSERT_NO_FATAL_FAILURE(Build(script, "conv2d_gpu", {}, &b));
  using Fn = void(const float*, const float*, float*);
  Fn* kernel = b.module->Kernel<Fn>("conv2d_gpu_kernel0");
  ASSERT_NE(kernel, nullptr);
  const int S = 6, C = 8, F = 16, N = 16, K = 3;
  std::vector<float> a = Random(S * S * C * N, 5), w = Random(K * K * C * F, 6);
  std::vector<float> out(S * S * F * N, 0.0f);
  b.module->Launch(b.grid, b.block, [&] { kernel(a.data(), w.data(), out.data()); });
  for (int y = 0; y < S; ++y) {
    for (int x = 0; x < S; ++x) {
      for (int f = 0; f < F; ++f) {
        for (int nn = 0; nn < N; ++nn) {
          double ref = 0;
          for (int ry = 0; ry < K; ++ry) {
            for (int rx = 0; rx < K; ++rx) {
              const int iy = y + ry - 1, ix = x + rx - 1;
              if (iy < 0 || iy >= S || ix < 0 || ix >= S) continue;
              for (int rc = 0; rc < C; ++rc) {
                ref += double(a[((iy * S + ix) * C + rc) * N + nn]) *
                       w[((ry * K + rx) * C + rc) * F + f];
              }
            }
          }
          ASSERT_NEAR(out[((y * S + x) * F + f) * N + nn], ref, 1e-4)
              << y << "," << x << "," << f << "," << nn;
        }
      }
    }
  }
}

}  // namespace
}  // namespace tunefarm::codegen::cuda
