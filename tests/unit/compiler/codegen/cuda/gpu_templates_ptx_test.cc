// The GPU operator templates (compiler/topi/gpu_*.h) through the CUDA code generator: each
// template's default config and a seeded sample of 3 configs from its knob space lower for
// target cuda, compile to PTX with NVRTC, assemble with ptxas for sm_90 within the register and
// shared-memory limits, and launch with the block the config asks for. No GPU needed.
#include <functional>
#include <gtest/gtest.h>
#include <random>
#include <string>
#include <vector>

#include "compiler/codegen/cuda/build_cuda.h"
#include "compiler/codegen/cuda/nvrtc_compile.h"
#include "compiler/passes/lower.h"
#include "compiler/space/config_sampler.h"
#include "compiler/topi/gpu_conv2d_knobs.h"
#include "compiler/topi/gpu_depthwise_conv2d_knobs.h"
#include "compiler/topi/gpu_matmul_knobs.h"
#include "compiler/topi/static_shape.h"
#include "runtime/gpu/gpu_module.h"

namespace tunefarm::codegen::cuda {
namespace {

using topi::ScheduledOp;

te::Tensor Placeholder(const std::vector<int64_t>& shape, const std::string& name) {
  std::vector<ir::Expr> dims;
  for (int64_t d : shape) dims.push_back(topi::Imm(d));
  return te::placeholder(dims, ir::DataType::Float(32), name);
}

// One scheduled op with the block it must launch with (x, y, z) and its shared-memory budget.
struct Kernel {
  std::string label;
  absl::StatusOr<ScheduledOp> op;
  std::array<int64_t, 3> block;
  int64_t shared_bytes;
};

// Builds `k` for cuda and checks PTX, ptxas' report and the launch.
void ExpectBuilds(const Kernel& k, const std::string& name) {
  SCOPED_TRACE(k.label);
  ASSERT_TRUE(k.op.ok()) << k.op.status();
  passes::PassOptions options;
  options.target = passes::LoweringTarget::kCuda;
  absl::StatusOr<ir::PrimFunc> f = passes::Lower(k.op->schedule, k.op->args, name, options);
  ASSERT_TRUE(f.ok()) << f.status();
  absl::StatusOr<runtime::gpu::GpuModuleImage> image =
      BuildCuda(*f, *target::ParseCudaTarget("cuda"));
  ASSERT_TRUE(image.ok()) << image.status();
  EXPECT_NE(image->code.find(".entry"), std::string::npos);
  ASSERT_EQ(image->functions.size(), 1u);
  ASSERT_EQ(image->functions[0].launches.size(), 1u);
  const runtime::gpu::GpuLaunch& launch = image->functions[0].launches[0];
  for (int d = 0; d < 3; ++d) {
    absl::StatusOr<int64_t> b = runtime::gpu::EvalLaunchExpr(launch.block[d], {});
    ASSERT_TRUE(b.ok()) << b.status();
    EXPECT_EQ(*b, k.block[d]) << "block dimension " << d;
  }
  absl::StatusOr<std::vector<KernelResources>> report = PtxasReport(image->code, "sm_90");
  ASSERT_TRUE(report.ok()) << report.status();
  ASSERT_EQ(report->size(), 1u);
  EXPECT_GT((*report)[0].registers, 0);
  EXPECT_LE((*report)[0].registers, 255);
  EXPECT_LE((*report)[0].shared_bytes, k.shared_bytes);
  std::printf("%s: %d registers, %lld bytes shared\n", k.label.c_str(), (*report)[0].registers,
              static_cast<long long>((*report)[0].shared_bytes));
}

// The default config's kernel, then `n` sampled from `space` with `seed`.
template <typename Config>
void ExpectTemplateBuilds(const std::string& name, const Config& def,
                          const space::ConfigSpace& space,
                          const std::function<absl::StatusOr<Config>(const space::Config&)>& read,
                          const std::function<Kernel(const Config&)>& kernel) {
  ExpectBuilds(kernel(def), name);
  std::mt19937_64 rng(17);
  for (int i = 0; i < 3; ++i) {
    absl::StatusOr<space::Config> p = space::SampleValidConfig(space, rng);
    ASSERT_TRUE(p.ok()) << p.status();
    absl::StatusOr<Config> c = read(*p);
    ASSERT_TRUE(c.ok()) << c.status();
    ExpectBuilds(kernel(*c), name);
  }
}

TEST(GpuTemplatesPtxTest, Matmul) {
  const topi::GemmTensors t =
      *topi::MatmulCompute(Placeholder({37, 23}, "A"), Placeholder({23, 29}, "B"));
  space::ConfigSpace space;
  ASSERT_TRUE(topi::DefineGpuMatmulKnobs(space, t).ok());
  ExpectTemplateBuilds<topi::GpuMatmulScheduleConfig>(
      "gpu_matmul", topi::DefaultGpuMatmulConfig(37, 29, 23), space, topi::GpuMatmulConfigFromKnobs,
      [&](const topi::GpuMatmulScheduleConfig& c) {
        return Kernel{c.ToString(),
                      topi::ScheduleGpuMatmul(c, t),
                      {c.n.threads, c.m.threads, 1},
                      c.SharedBytes()};
      });
}

TEST(GpuTemplatesPtxTest, Conv2d) {
  const topi::Window2d window = topi::Window2d::Make(1, 1);
  const topi::Conv2dTensors t = *topi::Conv2dCompute(Placeholder({1, 5, 9, 9}, "data"),
                                                     Placeholder({7, 5, 3, 3}, "kernel"), window);
  space::ConfigSpace space;
  ASSERT_TRUE(topi::DefineGpuConv2dKnobs(space, t, window).ok());
  ExpectTemplateBuilds<topi::GpuConv2dScheduleConfig>(
      "gpu_conv2d", topi::DefaultGpuConv2dConfig(t), space, topi::GpuConv2dConfigFromKnobs,
      [&](const topi::GpuConv2dScheduleConfig& c) {
        return Kernel{c.ToString(),
                      topi::ScheduleGpuConv2d(c, t, window),
                      {c.x.threads, c.y.threads, c.f.threads},
                      c.SharedBytes(window, 3, 3)};
      });
}

TEST(GpuTemplatesPtxTest, DepthwiseConv2d) {
  const topi::Window2d window = topi::Window2d::Make(1, 1);
  const topi::DepthwiseConv2dTensors t = *topi::DepthwiseConv2dCompute(
      Placeholder({1, 6, 11, 11}, "data"), Placeholder({6, 1, 3, 3}, "kernel"), window);
  space::ConfigSpace space;
  ASSERT_TRUE(topi::DefineGpuDepthwiseConv2dKnobs(space, t, window).ok());
  ExpectTemplateBuilds<topi::GpuDepthwiseConv2dScheduleConfig>(
      "gpu_depthwise_conv2d", topi::DefaultGpuDepthwiseConv2dConfig(t), space,
      topi::GpuDepthwiseConv2dConfigFromKnobs,
      [&](const topi::GpuDepthwiseConv2dScheduleConfig& c) {
        return Kernel{c.ToString(),
                      topi::ScheduleGpuDepthwiseConv2d(c, t, window),
                      {c.x.threads, c.y.threads, c.c.threads},
                      c.SharedBytes(window, 3, 3)};
      });
}

}  // namespace
}  // namespace tunefarm::codegen::cuda
