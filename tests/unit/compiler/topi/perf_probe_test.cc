// A quick, disabled performance probe of the default schedules (matmul 1024^3 and a ResNet 3x3
// conv in NCHWc) through the LLVM JIT at 1 and 2 threads. Not a test: run it by hand with
//   topi_tests --gtest_also_run_disabled_tests --gtest_filter='*PerfProbe*'
// The benchmarks against OpenBLAS and oneDNN live in bench/.
#include <cstdio>
#include <gtest/gtest.h>

#include "compiler/topi/conv2d_nchwc.h"
#include "compiler/topi/gemm_schedule.h"
#include "runtime/time_evaluator.h"
#include "tests/unit/compiler/topi/topi_harness.h"

namespace tunefarm::topi {
namespace {

using testing::Backend;
using testing::BackendCase;
using testing::Placeholder;

// Median seconds per call of `op` on `args` through the JIT at `threads`.
double TimeOp(const ScheduledOp& op, const std::vector<runtime::NDArray*>& args, int threads) {
  passes::PassOptions options;
  options.target = "llvm";
  absl::StatusOr<ir::PrimFunc> f = passes::Lower(op.schedule, op.args, "probe", options);
  EXPECT_TRUE(f.ok()) << f.status();
  if (!f.ok()) return 0;
  absl::StatusOr<runtime::PackedFunction> kernel =
      testing::Compile(BackendCase{Backend::kJit, threads}, *f);
  EXPECT_TRUE(kernel.ok()) << kernel.status();
  if (!kernel.ok()) return 0;
  EXPECT_TRUE(runtime::SetNumThreads(threads));
  std::vector<runtime::PackedArg> packed(args.begin(), args.end());
  runtime::TimeEvaluatorOptions timing;
  timing.repeat = 7;
  timing.min_repeat_ms = 200;
  absl::StatusOr<std::vector<double>> seconds =
      runtime::TimeFunction([&] { return kernel->Call(packed); }, timing);
  runtime::SetNumThreads(0);
  EXPECT_TRUE(seconds.ok()) << seconds.status();
  return seconds.ok() ? runtime::Summarize(*seconds).median : 0;
}

TEST(PerfProbe, DISABLED_Matmul1024) {
  const int64_t n = 1024;
  const CpuInfo cpu = DetectHostCpu();
  std::printf("host: %s\n", cpu.ToString().c_str());
  for (const CpuInfo& target : {Avx2Cpu(2), cpu}) {
    GemmScheduleConfig config = DefaultMatmulConfig(n, n, n, target);
    absl::StatusOr<GemmTensors> t =
        MatmulCompute(Placeholder({n, n}, "A"), Placeholder({n, n}, "B"), config.Layout());
    ASSERT_TRUE(t.ok()) << t.status();
    absl::StatusOr<ScheduledOp> op = ScheduleMatmul(config, *t);
    ASSERT_TRUE(op.ok()) << op.status();
    runtime::NDArray a = testing::RandomArray({n, n}, 1), b = testing::RandomArray({n, n}, 2);
    runtime::NDArray c = testing::OutputArray({n, n});
    for (int threads : {1, 2}) {
      double s = TimeOp(*op, {&a, &b, &c}, threads);
      std::printf("matmul 1024^3 [%s] %d thread(s): %.2f ms, %.1f GFLOPS\n",
                  config.ToString().c_str(), threads, s * 1e3, 2.0 * n * n * n / s / 1e9);
    }
  }
}

TEST(PerfProbe, DISABLED_Conv2dNchwcResNet3x3) {
  const std::vector<int64_t> data_shape = {1, 64, 56, 56}, kernel_shape = {64, 64, 3, 3};
  const Window2d window = Window2d::Make(1, 1);
  for (const CpuInfo& target : {Avx2Cpu(2), DetectHostCpu()}) {
    Conv2dNchwcScheduleConfig config =
        DefaultConv2dNchwcConfig(data_shape, kernel_shape, window, target);
    const int64_t ib = config.ic_block, ob = config.oc_block;
    absl::StatusOr<Conv2dNchwcTensors> t =
        Conv2dNchwcCompute(Placeholder({1, 64 / ib, 56, 56, ib}, "data"),
                           Placeholder({64 / ob, 64 / ib, 3, 3, ib, ob}, "kernel"), window);
    ASSERT_TRUE(t.ok()) << t.status();
    absl::StatusOr<ScheduledOp> op = ScheduleConv2dNchwc(config, *t);
    ASSERT_TRUE(op.ok()) << op.status();
    runtime::NDArray data = testing::RandomArray({1, 64 / ib, 56, 56, ib}, 1);
    runtime::NDArray kernel = testing::RandomArray({64 / ob, 64 / ib, 3, 3, ib, ob}, 2);
    runtime::NDArray out = testing::OutputArray({1, 64 / ob, 56, 56, ob});
    const double flops = 2.0 * 64 * 64 * 56 * 56 * 9;
    for (int threads : {1, 2}) {
      double s = TimeOp(*op, {&data, &kernel, &out}, threads);
      std::printf("conv2d_nchwc 56x56 64->64 3x3 [%s] %d thread(s): %.3f ms, %.1f GFLOPS\n",
                  config.ToString().c_str(), threads, s * 1e3, flops / s / 1e9);
    }
  }
}

}  // namespace
}  // namespace tunefarm::topi
