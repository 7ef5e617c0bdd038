// int8 dense benchmark: our int8 template (the dot intrinsic: VNNI's vpdpbusd here where the CPU
// has it) against our own fp32 GEMM of the same shape and oneDNN's int8 matmul, at 1 and 2
// threads, all measured in this run (median of 5 repeats of at least 100 ms). Aims: int8 >= 2x
// our fp32, >= 1.0x oneDNN int8. BENCH_QUICK=1 runs one shape.
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

struct Shape {
  int64_t m, n, k;
  const char* what;
};

// What the intrinsic lowers to on this host, for the table's header.
const char* DotInstruction(const topi::CpuInfo& cpu) {
  if (cpu.model.find("aarch64") != std::string::npos) return "sdot/udot where +dotprod";
  FILE* f = std::fopen("/proc/cpuinfo", "r");
  if (f == nullptr) return "unknown";
  char line[8192];
  bool vnni = false;
  while (std::fgets(line, sizeof(line), f) != nullptr) {
    if (std::string(line).find("avx512_vnni") != std::string::npos) vnni = true;
  }
  std::fclose(f);
  return vnni ? "vpdpbusd (AVX-512 VNNI)" : "widened multiply-adds (no VNNI here)";
}

int Main() {
  const bool quick = std::getenv("BENCH_QUICK") != nullptr;
  const topi::CpuInfo cpu = topi::DetectHostCpu();
  std::printf("cpu: %s\nint8 dot: %s\n\n", cpu.ToString().c_str(), DotInstruction(cpu));
  std::vector<Shape> shapes = {{1, 1000, 512, "resnet18 fc"}};
  if (!quick) {
    shapes.push_back({1, 4096, 4096, "vgg fc"});
    shapes.push_back({64, 1024, 1024, "batch 64"});
    shapes.push_back({128, 768, 3072, "bert ffn, 128 tokens"});
  }
  std::printf(
      "| shape (MxNxK) | threads | int8 GOPS | fp32 GOPS | int8 / fp32 | oneDNN int8 GOPS | "
      "int8 / oneDNN |\n|---|---|---|---|---|---|---|\n");
  std::vector<std::string> configs;
  int failures = 0;
  for (const Shape& s : shapes) {
    const std::string name = std::to_string(s.m) + "x" + std::to_string(s.n) + "x" +
                             std::to_string(s.k) + " (" + s.what + ")";
    absl::StatusOr<OurKernel> int8 = OurDenseInt8(s.m, s.n, s.k, cpu);
    absl::StatusOr<OurKernel> fp32 = OurMatmul(s.m, s.n, s.k, cpu);
    if (!int8.ok() || !fp32.ok()) {
      std::printf("| %s | - | error: %s |\n", name.c_str(),
                  std::string((int8.ok() ? fp32.status() : int8.status()).message()).c_str());
      ++failures;
      continue;
    }
    configs.push_back(name + ": int8 " + int8->config + "; fp32 " + fp32->config);
    const double ops = 2.0 * s.m * s.n * s.k;
    for (int threads : {1, 2}) {
      std::string error;
      runtime::SetNumThreads(threads, &error);
      SetVendorThreads(threads);
      absl::StatusOr<VendorKernel> dnnl = OneDnnInt8Matmul(s.m, s.n, s.k);
      absl::StatusOr<double> t8 = MedianSeconds(int8->run);
      absl::StatusOr<double> t32 = MedianSeconds(fp32->run);
      absl::StatusOr<double> td = absl::InternalError("no oneDNN");
      if (dnnl.ok()) {
        td = MedianSeconds([&] {
          dnnl->run();
          return absl::OkStatus();
        });
      }
      if (!t8.ok() || !t32.ok()) {
        std::printf("| %s | %d | error: %s |\n", name.c_str(), threads,
                    std::string((t8.ok() ? t32.status() : t8.status()).message()).c_str());
        ++failures;
        continue;
      }
      const double g8 = ops / *t8 / 1e9, g32 = ops / *t32 / 1e9;
      if (td.ok()) {
        const double gd = ops / *td / 1e9;
        std::printf("| %s | %d | %.1f | %.1f | %.2f | %.1f | %.2f |\n", name.c_str(), threads, g8,
                    g32, g8 / g32, gd, g8 / gd);
      } else {
        std::printf("| %s | %d | %.1f | %.1f | %.2f | error: %s | |\n", name.c_str(), threads, g8,
                    g32, g8 / g32, std::string(td.status().message()).c_str());
        ++failures;
      }
      std::fflush(stdout);
    }
  }
  std::printf("\nconfigs:\n");
  for (const std::string& c : configs) std::printf("  %s\n", c.c_str());
  return failures == 0 ? 0 : 1;
}

}  // namespace
}  // namespace tunefarm::bench

int main() { return tunefarm::bench::Main(); }
