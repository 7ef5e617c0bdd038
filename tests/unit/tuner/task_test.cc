// Task: binding a template to a workload and target, its space declared once; and the CPU a
// target string implies for the knobs (target_cpu.h).
#include "tuner/task.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "compiler/ir/op.h"
#include "compiler/space/config_sampler.h"
#include "compiler/te/tensor.h"
#include "tuner/target_cpu.h"
#include "tuner/target_kind.h"

namespace tunefarm::tuner {
namespace {

using ::testing::HasSubstr;

// A real, small template: y[i] = x[i] * 2, one split knob; or a template whose space fails.
class ScaleTemplate final : public TaskTemplate {
 public:
  explicit ScaleTemplate(bool fail_space = false) : fail_space_(fail_space) {}

  absl::Status DefineSpace(space::ConfigSpace& space) const override {
    if (fail_space_) return absl::InvalidArgumentError("no space today");
    return space.DefineSplit("tile", {.extent = 16, .num_parts = 2});
  }
  absl::StatusOr<space::Config> DefaultConfig(const space::ConfigSpace& space) const override {
    return space.Get(0);
  }
  absl::StatusOr<topi::ScheduledOp> Apply(const space::Config& config) const override {
    absl::StatusOr<std::vector<int64_t>> f = config.SplitFactors("tile");
    if (!f.ok()) return f.status();
    topi::ScheduledOp op = Reference(config).value();
    return op;
  }
  absl::StatusOr<topi::ScheduledOp> Reference(const space::Config& config) const override {
    (void)config;
    te::Tensor x =
        te::placeholder({ir::IntImm(ir::DataType::Int(32), 16)}, ir::DataType::Float(32), "x");
    absl::StatusOr<te::Tensor> y = te::compute(
        {ir::IntImm(ir::DataType::Int(32), 16)},
        [&](const std::vector<ir::Var>& i) { return x({i[0]}) * ir::Expr(2.0f); }, "y", {"i"});
    return topi::ScheduledOp{schedule::Schedule::Create({y->op()}), {x, *y}};
  }
  double Flops() const override { return 16; }

 private:
  bool fail_space_;
};

TEST(TaskTest, FromTemplateDeclaresTheSpaceAndCanonicalizesTheTarget) {
  absl::StatusOr<std::unique_ptr<Task>> task =
      Task::FromTemplate(Workload{"scale", {16}, "float32"}, std::make_unique<ScaleTemplate>(),
                         "llvm", topi::Avx2Cpu());
  ASSERT_TRUE(task.ok()) << task.status();
  EXPECT_EQ((*task)->key(), "scale:16:float32");
  EXPECT_EQ((*task)->target(), *CanonicalTarget("llvm"));
  EXPECT_THAT((*task)->target(), HasSubstr("-mtriple="));
  EXPECT_EQ((*task)->space().size(), 5);  // 16 = 1x16, 2x8, 4x4, 8x2, 16x1
  EXPECT_DOUBLE_EQ((*task)->flops(), 16);
  EXPECT_EQ((*task)->cpu().vector_bits, 256);
  absl::StatusOr<space::Config> def = (*task)->DefaultConfig();
  ASSERT_TRUE(def.ok()) << def.status();
  EXPECT_EQ(&def->space(), &(*task)->space());
  EXPECT_TRUE((*task)->Apply(*def).ok());
}

TEST(TaskTest, NullTemplateIsAnError) {
  absl::StatusOr<std::unique_ptr<Task>> task =
      Task::FromTemplate(Workload{"scale", {16}, "float32"}, nullptr, "llvm", topi::Avx2Cpu());
  EXPECT_EQ(task.status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(TaskTest, BadTargetIsAnError) {
  absl::StatusOr<std::unique_ptr<Task>> task =
      Task::FromTemplate(Workload{"scale", {16}, "float32"}, std::make_unique<ScaleTemplate>(),
                         "llvm -mtriple=riscv64-linux-gnu", topi::Avx2Cpu());
  ASSERT_FALSE(task.ok());
  EXPECT_THAT(task.status().message(), HasSubstr("riscv64"));
}

TEST(TaskTest, SpaceErrorNamesTheTask) {
  absl::StatusOr<std::unique_ptr<Task>> task = Task::FromTemplate(
      Workload{"scale", {16}, "float32"}, std::make_unique<ScaleTemplate>(/*fail_space=*/true),
      "llvm", topi::Avx2Cpu());
  ASSERT_FALSE(task.ok());
  EXPECT_EQ(task.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(task.status().message(), HasSubstr("task scale:16:float32: no space today"));
}

TEST(TargetCpuTest, HostIsDetected) {
  absl::StatusOr<topi::CpuInfo> cpu = CpuInfoForTarget("llvm");
  ASSERT_TRUE(cpu.ok()) << cpu.status();
  EXPECT_GE(cpu->cores, 1);
  EXPECT_GE(cpu->vector_bits, 128);
}

TEST(TargetCpuTest, CrossTargetsTakeTheirSimdFromCpuAndFeatures) {
  struct Case {
    std::string target;
    int bits, registers;
  };
  for (const Case& c : std::vector<Case>{
           {"llvm -mtriple=aarch64-linux-gnu", 128, 32},
           {"llvm -mtriple=aarch64-linux-gnu -mcpu=cortex-a72", 128, 32},
           {"llvm -mtriple=x86_64-linux-gnu -mcpu=skylake-avx512", 512, 32},
           {"llvm -mtriple=x86_64-linux-gnu -mcpu=haswell", 256, 16},
           {"llvm -mtriple=x86_64-linux-gnu -mcpu=skylake-avx512 -mattr=-avx512f", 256, 16},
           {"llvm -mtriple=x86_64-linux-gnu -mcpu=x86-64 -mattr=+avx2,+fma", 256, 16},
           {"llvm -mtriple=x86_64-linux-gnu -mcpu=x86-64", 128, 16}}) {
    absl::StatusOr<topi::CpuInfo> cpu = CpuInfoForTarget(c.target);
    ASSERT_TRUE(cpu.ok()) << c.target << ": " << cpu.status();
    EXPECT_EQ(cpu->vector_bits, c.bits) << c.target;
    EXPECT_EQ(cpu->vector_registers, c.registers) << c.target;
  }
}

TEST(TargetCpuTest, AnExplicitCpuNarrowsTheHostsSimd) {
  // Runs on any x86 host that has AVX2: haswell code has 8 float lanes whatever the host has.
  absl::StatusOr<topi::CpuInfo> host = CpuInfoForTarget("llvm");
  ASSERT_TRUE(host.ok());
  if (host->vector_bits < 256) GTEST_SKIP() << "host without AVX2";
  absl::StatusOr<topi::CpuInfo> cpu = CpuInfoForTarget("llvm -mcpu=haswell");
  ASSERT_TRUE(cpu.ok()) << cpu.status();
  EXPECT_EQ(cpu->vector_bits, 256);
  EXPECT_EQ(cpu->vector_registers, 16);
}

TEST(TargetCpuTest, BadTargetIsAnError) {
  EXPECT_FALSE(CpuInfoForTarget("opencl").ok());
  EXPECT_FALSE(CanonicalTarget("llvm -mtriple=mips-linux-gnu").ok());
  EXPECT_FALSE(CanonicalTarget("cuda -arch=sm_50").ok());
  EXPECT_FALSE(CanonicalTarget("cuda -arch=banana").ok());
}

TEST(TargetCpuTest, CudaTargetsAreCanonicalAndLaunchedFromTheHost) {
  EXPECT_EQ(*CanonicalTarget("cuda"), "cuda -arch=sm_90");
  EXPECT_EQ(*CanonicalTarget("cuda -arch=sm_80"), "cuda -arch=sm_80");
  absl::StatusOr<topi::CpuInfo> cpu = CpuInfoForTarget("cuda");
  ASSERT_TRUE(cpu.ok()) << cpu.status();
  EXPECT_EQ(cpu->model, CpuInfoForTarget("llvm")->model);
  EXPECT_EQ(TargetKindOf("cuda -arch=sm_90"), TargetKind::kCuda);
  EXPECT_EQ(TargetKindOf("cudax"), TargetKind::kCpu);
  EXPECT_EQ(TargetKindOf("llvm -mcpu=haswell"), TargetKind::kCpu);
}

}  // namespace
}  // namespace tunefarm::tuner
