// Task: binding a template to a workload and target, its space declared once; and the CPU a
// target string implies for the knobs (target_cpu.h).
#include "tuner/task.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "compiler/ir/op.h"
#include "compiler/space/config_sampler.h"
#include "compiler/te/tensor.h"

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

TEST(TaskTest, FromTemplateDeclaresTheSpaceForItsTarget) {
  absl::StatusOr<std::unique_ptr<Task>> task =
      Task::FromTemplate(Workload{"scale", {16}, "float32"}, std::make_unique<ScaleTemplate>(),
                         target::Target::Host(), topi::Avx2Cpu());
  ASSERT_TRUE(task.ok()) << task.status();
  EXPECT_EQ((*task)->key(), "scale:16:float32");
  EXPECT_EQ((*task)->target(), target::Target::Host());
  EXPECT_EQ((*task)->space().size(), 5);  // 16 = 1x16, 2x8, 4x4, 8x2, 16x1
  EXPECT_DOUBLE_EQ((*task)->flops(), 16);
  EXPECT_EQ((*task)->cpu().vector_bits, 256);
  absl::StatusOr<space::Config> def = (*task)->DefaultConfig();
  ASSERT_TRUE(def.ok()) << def.status();
  EXPECT_EQ(&def->space(), &(*task)->space());
  EXPECT_TRUE((*task)->Apply(*def).ok());
}

TEST(TaskTest, NullTemplateIsAnError) {
  absl::StatusOr<std::unique_ptr<Task>> task = Task::FromTemplate(
      Workload{"scale", {16}, "float32"}, nullptr, target::Target::Host(), topi::Avx2Cpu());
  EXPECT_EQ(task.status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(TaskTest, SpaceErrorNamesTheTask) {
  absl::StatusOr<std::unique_ptr<Task>> task = Task::FromTemplate(
      Workload{"scale", {16}, "float32"}, std::make_unique<ScaleTemplate>(/*fail_space=*/true),
      target::Target::Host(), topi::Avx2Cpu());
  ASSERT_FALSE(task.ok());
  EXPECT_EQ(task.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(task.status().message(), HasSubstr("task scale:16:float32: no space today"));
}

}  // namespace
}  // namespace tunefarm::tuner
