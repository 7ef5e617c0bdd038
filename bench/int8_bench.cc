// int8 benchmark: our int8 dense and conv2d templates (the dot intrinsic: VNNI's vpdpbusd where
// the CPU has it) against our own fp32 kernels of the same shapes and oneDNN's int8 matmul and
// convolution, at 1 and 2 threads, all measured in this run (median of 5 repeats of at least
// 100 ms). Aims: int8 >= 2x our fp32, >= 1.0x oneDNN int8. BENCH_QUICK=1 runs one shape of each.
#include <cstdio>
#include <cstdlib>
#include <functional>
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

// One table row per thread count: ours int8, ours fp32 and the vendor's int8, as GOPS.
struct Row {
  std::string name;
  double ops;
  std::function<absl::StatusOr<OurKernel>()> int8, fp32;
  std::function<absl::StatusOr<VendorKernel>()> vendor;  // made per thread count (oneDNN)
};

int RunTable(const char* title, const std::vector<Row>& rows, std::vector<std::string>& configs) {
  std::printf(
      "\n%s\n\n| shape | threads | int8 GOPS | fp32 GOPS | int8 / fp32 | oneDNN int8 GOPS "
      "| int8 / oneDNN |\n|---|---|---|---|---|---|---|\n",
      title);
  int failures = 0;
  for (const Row& row : rows) {
    absl::StatusOr<OurKernel> int8 = row.int8();
    absl::StatusOr<OurKernel> fp32 = row.fp32();
    if (!int8.ok() || !fp32.ok()) {
      std::printf("| %s | - | error: %s |\n", row.name.c_str(),
                  std::string((int8.ok() ? fp32.status() : int8.status()).message()).c_str());
      ++failures;
      continue;
    }
    configs.push_back(row.name + ": int8 " + int8->config + "; fp32 " + fp32->config);
    for (int threads : {1, 2}) {
      std::string error;
      runtime::SetNumThreads(threads, &error);
      SetVendorThreads(threads);
      absl::StatusOr<VendorKernel> vendor = row.vendor();
      absl::StatusOr<double> t8 = MedianSeconds(int8->run);
      absl::StatusOr<double> t32 = MedianSeconds(fp32->run);
      absl::StatusOr<double> tv = absl::InternalError("no oneDNN kernel");
      if (vendor.ok()) {
        tv = MedianSeconds([&] {
          vendor->run();
          return absl::OkStatus();
        });
      }
      if (!t8.ok() || !t32.ok() || !tv.ok()) {
        const absl::Status& bad = !t8.ok() ? t8.status() : !t32.ok() ? t32.status() : tv.status();
        std::printf("| %s | %d | error: %s |\n", row.name.c_str(), threads,
                    std::string(bad.message()).c_str());
        ++failures;
        continue;
      }
      const double g8 = row.ops / *t8 / 1e9, g32 = row.ops / *t32 / 1e9, gv = row.ops / *tv / 1e9;
      std::printf("| %s | %d | %.1f | %.1f | %.2f | %.1f | %.2f |\n", row.name.c_str(), threads, g8,
                  g32, g8 / g32, gv, g8 / gv);
      std::fflush(stdout);
    }
  }
  return failures;
}

int Main() {
  const bool quick = std::getenv("BENCH_QUICK") != nullptr;
  const topi::CpuInfo cpu = topi::DetectHostCpu();
  std::printf("cpu: %s\nint8 dot: %s\n", cpu.ToString().c_str(), DotInstruction(cpu));
  std::vector<Shape> shapes = {{1, 1000, 512, "resnet18 fc"}};
  if (!quick) {
    shapes.push_back({1, 4096, 4096, "vgg fc"});
    shapes.push_back({64, 1024, 1024, "batch 64"});
    shapes.push_back({128, 768, 3072, "bert ffn, 128 tokens"});
  }
  std::vector<Row> dense;
  for (const Shape& s : shapes) {
    dense.push_back({std::to_string(s.m) + "x" + std::to_string(s.n) + "x" + std::to_string(s.k) +
                         " (" + s.what + ")",
                     2.0 * s.m * s.n * s.k, [=] { return OurDenseInt8(s.m, s.n, s.k, cpu); },
                     [=] { return OurMatmul(s.m, s.n, s.k, cpu); },
                     [=] { return OneDnnInt8Matmul(s.m, s.n, s.k); }});
  }
  std::vector<std::pair<std::string, ConvShape>> convs = {
      {"resnet18 56x56 64->64 3x3", {1, 64, 56, 56, 64, 3, 1, 1}}};
  if (!quick) {
    convs.push_back({"resnet18 28x28 128->128 3x3", {1, 128, 28, 28, 128, 3, 1, 1}});
    convs.push_back({"resnet18 14x14 256->256 3x3", {1, 256, 14, 14, 256, 3, 1, 1}});
    convs.push_back({"resnet18 7x7 512->512 3x3", {1, 512, 7, 7, 512, 3, 1, 1}});
  }
  std::vector<Row> conv;
  for (const auto& [name, shape] : convs) {
    conv.push_back({name, shape.flops(), [=, s = shape] { return OurConv2dInt8(s, cpu); },
                    [=, s = shape] { return OurConv2d(s, cpu); },
                    [s = shape] { return OneDnnInt8Conv2d(s); }});
  }
  std::vector<std::string> configs;
  int failures = RunTable("dense (MxNxK; fp32: our matmul)", dense, configs);
  failures += RunTable("conv2d (fp32: our NCHWc conv)", conv, configs);
  std::printf("\nconfigs:\n");
  for (const std::string& c : configs) std::printf("  %s\n", c.c_str());
  return failures == 0 ? 0 : 1;
}

}  // namespace
}  // namespace tunefarm::bench

int main() { return tunefarm::bench::Main(); }
