// The GPU operator templates (compiler/topi/gpu_*.h) with their default configs, run through the
// generated CUDA C on the host emulation and compared with the reference interpreter: the
// numbers of shared-memory tiling, virtual threads and cooperative fetching, without a GPU.
#include <gtest/gtest.h>

#include "compiler/passes/lower.h"
#include "compiler/topi/gpu_conv2d_knobs.h"
#include "compiler/topi/gpu_depthwise_conv2d_knobs.h"
#include "compiler/topi/gpu_matmul_knobs.h"
#include "compiler/topi/static_shape.h"
#include "tests/unit/compiler/codegen/cuda/emulation_check.h"

namespace tunefarm::codegen::cuda {
namespace {

te::Tensor Input(const std::vector<int64_t>& shape, const std::string& name) {
  std::vector<ir::Expr> dims;
  for (int64_t d : shape) dims.push_back(topi::Imm(d));
  return te::placeholder(dims, ir::DataType::Float(32), name);
}

void ExpectMatches(const absl::StatusOr<topi::ScheduledOp>& op, const std::string& name) {
  ASSERT_TRUE(op.ok()) << op.status();
  passes::PassOptions options;
  options.target = passes::LoweringTarget::kCuda;
  absl::StatusOr<ir::PrimFunc> f = passes::Lower(op->schedule, op->args, name, options);
  ASSERT_TRUE(f.ok()) << f.status();
  ExpectEmulationMatchesInterpreter(*f, {});
}

TEST(GpuTemplatesEmulationTest, Matmul) {
  const topi::GemmTensors t = *topi::MatmulCompute(Input({37, 23}, "A"), Input({23, 29}, "B"));
  ExpectMatches(topi::ScheduleGpuMatmul(topi::DefaultGpuMatmulConfig(37, 29, 23), t), "gpu_matmul");
}

TEST(GpuTemplatesEmulationTest, Conv2d) {
  const topi::Window2d window = topi::Window2d::Make(1, 1);
  const topi::Conv2dTensors t =
      *topi::Conv2dCompute(Input({1, 5, 9, 9}, "data"), Input({7, 5, 3, 3}, "kernel"), window);
  ExpectMatches(topi::ScheduleGpuConv2d(topi::DefaultGpuConv2dConfig(t), t, window), "gpu_conv2d");
}

TEST(GpuTemplatesEmulationTest, DepthwiseConv2d) {
  const topi::Window2d window = topi::Window2d::Make(1, 1);
  const topi::DepthwiseConv2dTensors t = *topi::DepthwiseConv2dCompute(
      Input({1, 6, 11, 11}, "data"), Input({6, 1, 3, 3}, "kernel"), window);
  ExpectMatches(
      topi::ScheduleGpuDepthwiseConv2d(topi::DefaultGpuDepthwiseConv2dConfig(t), t, window),
      "gpu_depthwise_conv2d");
}

}  // namespace
}  // namespace tunefarm::codegen::cuda
