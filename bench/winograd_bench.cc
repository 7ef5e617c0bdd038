// winograd_bench: ResNet-18's 3x3 stride-1 layers (batch 1, blocked layouts, weights already
// transformed) as Winograd F(m x m, 3x3) for m = 2, 4, 6 against the direct conv2d_nchwc default
// schedule, measured in the same run at the same thread count; ratio = direct / winograd (above
// 1: Winograd is faster). The first Winograd schedule: where it stands before it is tuned.
//
//   winograd_bench            BENCH_THREADS=1 (the runtime pool's width)
#include <cstdio>
#include <cstdlib>
#include <string>

#include "absl/strings/numbers.h"
#include "bench/support/median_time.h"
#include "bench/support/our_kernels.h"
#include "bench/support/vendor_kernels.h"
#include "compiler/te/tensor.h"
#include "compiler/topi/conv2d_nchwc.h"
#include "compiler/topi/conv2d_winograd.h"
#include "compiler/topi/cpu_info.h"
#include "compiler/topi/window.h"
#include "runtime/core/thread_pool.h"

namespace tunefarm {
namespace {

te::Tensor Input(const std::vector<int64_t>& shape, const std::string& name) {
  std::vector<ir::Expr> dims;
  for (int64_t d : shape) dims.push_back(ir::Expr(static_cast<int>(d)));
  return te::placeholder(dims, ir::DataType::Float(32), name);
}

absl::StatusOr<double> WinogradSeconds(const bench::ConvShape& s, int m, const topi::CpuInfo& cpu) {
  absl::StatusOr<topi::WinogradMatrices> w = topi::MakeWinogradMatrices(m, 3);
  if (!w.ok()) return w.status();
  const topi::Conv2dNchwcScheduleConfig blocks = topi::DefaultConv2dNchwcConfig(
      {s.batch, s.in_channels, s.height, s.width}, {s.out_channels, s.in_channels, 3, 3},
      topi::Window2d::Make(1, 1), cpu);
  const int64_t ic = blocks.ic_block, oc = blocks.oc_block, alpha = w->alpha;
  absl::StatusOr<topi::Conv2dWinogradTensors> t = topi::Conv2dWinogradCompute(
      Input({s.batch, s.in_channels / ic, s.height, s.width, ic}, "data"),
      Input({alpha, alpha, s.out_channels / oc, s.in_channels / ic, ic, oc}, "weight"), s.pad, *w);
  if (!t.ok()) return t.status();
  topi::Conv2dWinogradScheduleConfig config = topi::DefaultConv2dWinogradConfig(m, cpu);
  absl::StatusOr<topi::ScheduledOp> op = topi::ScheduleConv2dWinograd(config, *t);
  if (!op.ok()) return op.status();
  absl::StatusOr<bench::OurKernel> k = bench::OurScheduled(*op, "conv2d_winograd", "");
  if (!k.ok()) return k.status();
  return bench::MedianSeconds(k->run);
}

int Main() {
  int threads = 1;
  if (const char* t = std::getenv("BENCH_THREADS");
      t != nullptr && !absl::SimpleAtoi(t, &threads)) {
    std::fprintf(stderr, "winograd_bench: BENCH_THREADS must be a number\n");
    return 2;
  }
  std::string error;
  if (!runtime::SetNumThreads(threads, &error)) {
    std::fprintf(stderr, "winograd_bench: %s\n", error.c_str());
    return 2;
  }
  const topi::CpuInfo cpu = topi::DetectHostCpu();
  std::printf("winograd_bench: %d thread(s); ms per call; ratio = direct / winograd\n", threads);
  std::printf("%-18s %9s %9s %9s %9s %7s %7s %7s\n", "layer", "direct", "F(2,3)", "F(4,3)",
              "F(6,3)", "x_F2", "x_F4", "x_F6");
  for (int64_t c : {64, 128, 256, 512}) {
    const int64_t side = 56 * 64 / c;
    const bench::ConvShape s{1, c, side, side, c, 3, 1, 1};
    absl::StatusOr<bench::OurKernel> direct = bench::OurConv2d(s, cpu);
    if (!direct.ok()) {
      std::fprintf(stderr, "winograd_bench: %s\n", std::string(direct.status().message()).c_str());
      return 1;
    }
    absl::StatusOr<double> d = bench::MedianSeconds(direct->run);
    double w[3] = {0, 0, 0};
    for (int i = 0; i < 3; ++i) {
      absl::StatusOr<double> t = WinogradSeconds(s, 2 * (i + 1), cpu);
      if (!t.ok() || !d.ok()) {
        std::fprintf(stderr, "winograd_bench: %s\n",
                     std::string((d.ok() ? t.status() : d.status()).message()).c_str());
        return 1;
      }
      w[i] = *t;
    }
    char name[64];
    std::snprintf(name, sizeof name, "%ldx%ld %ld->%ld", static_cast<long>(side),
                  static_cast<long>(side), static_cast<long>(c), static_cast<long>(c));
    std::printf("%-18s %9.3f %9.3f %9.3f %9.3f %7.2f %7.2f %7.2f\n", name, *d * 1e3, w[0] * 1e3,
                w[1] * 1e3, w[2] * 1e3, *d / w[0], *d / w[1], *d / w[2]);
  }
  return 0;
}

}  // namespace
}  // namespace tunefarm

int main() { return tunefarm::Main(); }
