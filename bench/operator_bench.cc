// Operator benchmark: GFLOPS of our default (untuned) CPU schedules against OpenBLAS (GEMMs) and
// oneDNN (convolutions), at 1 and 2 threads, all measured in this run with the runtime's time
// evaluator (median of 5 repeats of at least 100 ms). Targets for the default schedules: matmul
// 1024^3 at >= 50 % of OpenBLAS on one thread; parallel loops scaling >= 1.8x from 1 to 2 threads.
// BENCH_QUICK=1 runs two shapes only (a smoke run).
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "bench/support/median_time.h"
#include "bench/support/our_kernels.h"
#include "bench/support/vendor_kernels.h"
#include "runtime/core/thread_pool.h"

namespace tunefarm::bench {
namespace {

struct Workload {
  std::string name;
  double flops;
  std::function<absl::StatusOr<OurKernel>(const topi::CpuInfo&)> ours;
  std::function<absl::StatusOr<VendorKernel>()> vendor;
};

Workload Gemm(int64_t m, int64_t n, int64_t k) {
  return {"matmul " + std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k),
          2.0 * m * n * k, [=](const topi::CpuInfo& cpu) { return OurMatmul(m, n, k, cpu); },
          [=] { return OpenBlasSgemm(m, n, k); }};
}

Workload Conv(std::string name, ConvShape shape) {
  return {std::move(name), shape.flops(),
          [=](const topi::CpuInfo& cpu) { return OurConv2d(shape, cpu); },
          [=] { return OneDnnConv2d(shape); }};
}

std::vector<Workload> Workloads(bool quick) {
  std::vector<Workload> w = {Gemm(1024, 1024, 1024)};
  if (!quick) {
    w.push_back(Gemm(2048, 2048, 2048));
    w.push_back(Gemm(1000, 1000, 1000));
    w.push_back(Gemm(128, 3072, 768));
    w.push_back(Gemm(1, 1000, 2048));
  }
  w.push_back(Conv("resnet18 conv 56x56 64->64 3x3", {1, 64, 56, 56, 64, 3, 1, 1}));
  if (!quick) {
    w.push_back(Conv("resnet18 conv 28x28 128->128 3x3", {1, 128, 28, 28, 128, 3, 1, 1}));
    w.push_back(Conv("resnet18 conv 14x14 256->256 3x3", {1, 256, 14, 14, 256, 3, 1, 1}));
    w.push_back(Conv("resnet18 conv 7x7 512->512 3x3", {1, 512, 7, 7, 512, 3, 1, 1}));
    w.push_back(Conv("resnet18 conv 56x56 64->128 1x1 s2", {1, 64, 56, 56, 128, 1, 2, 0}));
    w.push_back(Conv("mobilenet depthwise 112x112 32 3x3", {1, 32, 112, 112, 32, 3, 1, 1, 32}));
  }
  return w;
}

std::string FormatRatio(double r) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.2f", r);
  return text;
}

int Main() {
  bool quick = std::getenv("BENCH_QUICK") != nullptr;
  topi::CpuInfo cpu = topi::DetectHostCpu();
  std::printf("cpu: %s\n\n", cpu.ToString().c_str());
  std::printf("| workload | threads | tunefarm GFLOPS | library | library GFLOPS | ratio |\n");
  std::printf("|---|---|---|---|---|---|\n");
  std::vector<std::string> configs;
  int failures = 0;
  for (const Workload& w : Workloads(quick)) {
    absl::StatusOr<OurKernel> ours = w.ours(cpu);
    if (!ours.ok()) {
      std::printf("| %s | - | error: %s | | | |\n", w.name.c_str(),
                  std::string(ours.status().message()).c_str());
      ++failures;
      continue;
    }
    configs.push_back(w.name + ": " + ours->config);
    double gflops_1_thread = 0;
    for (int threads : {1, 2}) {
      std::string error;
      runtime::SetNumThreads(threads, &error);
      SetVendorThreads(threads);
      // oneDNN fixes its thread count when a primitive is created: create it per width.
      absl::StatusOr<VendorKernel> vendor = w.vendor();
      if (!vendor.ok()) {
        std::printf("| %s | %d | error: %s | | | |\n", w.name.c_str(), threads,
                    std::string(vendor.status().message()).c_str());
        ++failures;
        continue;
      }
      absl::StatusOr<double> our_s = MedianSeconds(ours->run);
      absl::StatusOr<double> their_s = MedianSeconds([&] {
        vendor->run();
        return absl::OkStatus();
      });
      if (!our_s.ok() || !their_s.ok()) {
        std::printf(
            "| %s | %d | error: %s | | | |\n", w.name.c_str(), threads,
            std::string((our_s.ok() ? their_s.status() : our_s.status()).message()).c_str());
        ++failures;
        continue;
      }
      double ours_gflops = w.flops / *our_s / 1e9, theirs_gflops = w.flops / *their_s / 1e9;
      if (threads == 1) gflops_1_thread = ours_gflops;
      std::string scaling =
          threads == 1 ? "" : " (" + FormatRatio(ours_gflops / gflops_1_thread) + "x of 1 thread)";
      std::printf("| %s | %d | %.1f%s | %s | %.1f | %.2f |\n", w.name.c_str(), threads, ours_gflops,
                  scaling.c_str(), vendor->library.c_str(), theirs_gflops,
                  ours_gflops / theirs_gflops);
      std::fflush(stdout);
    }
  }
  std::printf("\ndefault schedule configs:\n");
  for (const std::string& c : configs) std::printf("  %s\n", c.c_str());
  return failures == 0 ? 0 : 1;
}

}  // namespace
}  // namespace tunefarm::bench

int main() { return tunefarm::bench::Main(); }
