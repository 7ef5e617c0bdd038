// compile_time_bench: what one tuning candidate costs to build — schedule, lower, LLVM codegen
// and JIT — for a tiled matmul. The tuner builds thousands of candidates, so the budget is a
// median of 60 ms; prints the median (p20/p80), its parts, and the ratio to the budget. The
// build's CPU time is printed too: on a shared machine it shows what the wall time would be if
// the core were ours alone (a build runs on the calling thread, JIT linking included).
// `--gflops` also times a tiled, vectorized, parallel 1024^3 float32 matmul built the same way.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <spdlog/cfg/helpers.h>
#include <string>
#include <vector>

#include "compiler/codegen/llvm/build.h"
#include "compiler/ir/op.h"
#include "compiler/passes/lower.h"
#include "runtime/core/thread_pool.h"
#include "runtime/ndarray.h"

namespace tunefarm {
namespace {

constexpr double kBudgetMs = 60.0;
constexpr int kWarmup = 3;
constexpr int kReps = 40;

using Clock = std::chrono::steady_clock;

double Ms(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double, std::milli>(b - a).count();
}

double ThreadCpuMs() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) * 1e-6;
}

struct Lowering {
  schedule::Schedule schedule;
  std::vector<te::Tensor> args;
};

// C[i, j] = sum_k A[i, k] * B[k, j]: rows tiled by `tile_i` and run in parallel, columns by
// `tile_j` and vectorized, k split by 4 and unrolled (the docs' tiled matmul).
Lowering TiledMatmul(ir::Expr n, int tile_i, int tile_j) {
  te::Tensor a = te::placeholder({n, n}, ir::DataType::Float(32), "A");
  te::Tensor b = te::placeholder({n, n}, ir::DataType::Float(32), "B");
  ir::IterVar k = te::reduce_axis({0, n}, "k");
  te::Tensor c = *te::compute(
      {n, n},
      [&](const auto& i) {
        return te::sum(a({i[0], k->var}) * b({k->var, i[1]}), {k});
      },
      "C");
  schedule::Schedule s = schedule::Schedule::Create({c.op()});
  ir::IterVar xo, yo, xi, yi, ko, ki;
  s[c].tile(c.op()->axis[0], c.op()->axis[1], tile_i, tile_j, &xo, &yo, &xi, &yi);
  s[c].split(c.op()->reduce_axis[0], 4, &ko, &ki);
  s[c].reorder({xo, yo, ko, xi, ki, yi}).vectorize(yi).unroll(ki).parallel(xo);
  return {s, {a, b, c}};
}

double Percentile(std::vector<double> v, double p) {
  std::sort(v.begin(), v.end());
  return v[static_cast<size_t>(p * static_cast<double>(v.size() - 1) + 0.5)];
}

int CompileTime(const codegen::LlvmTarget& target) {
  passes::PassOptions options;
  options.target = passes::LoweringTarget::kLlvm;
  options.verify = false;  // the tuner's builders run without verification
  std::vector<double> lower_ms, codegen_ms, total_ms, cpu_ms;
  for (int r = 0; r < kWarmup + kReps; ++r) {
    const double cpu_start = ThreadCpuMs();
    const Clock::time_point start = Clock::now();
    Lowering l = TiledMatmul(ir::Var("n"), 32, 8);
    absl::StatusOr<ir::PrimFunc> f = passes::Lower(l.schedule, l.args, "matmul", options);
    const Clock::time_point lowered = Clock::now();
    if (!f.ok()) {
      std::fprintf(stderr, "lowering failed: %s\n", std::string(f.status().message()).c_str());
      return 1;
    }
    absl::StatusOr<std::shared_ptr<runtime::Module>> m = codegen::BuildJit({*f}, target);
    const Clock::time_point built = Clock::now();
    const double cpu = ThreadCpuMs() - cpu_start;
    if (!m.ok()) {
      std::fprintf(stderr, "build failed: %s\n", std::string(m.status().message()).c_str());
      return 1;
    }
    if (r < kWarmup) continue;
    lower_ms.push_back(Ms(start, lowered));
    codegen_ms.push_back(Ms(lowered, built));
    total_ms.push_back(Ms(start, built));
    cpu_ms.push_back(cpu);
  }
  const double median = Percentile(total_ms, 0.5);
  std::printf("tiled matmul (n symbolic, 32x8 tiles, k split 4, vectorized, parallel, unrolled)\n");
  std::printf("  schedule+lower  median %7.2f ms\n", Percentile(lower_ms, 0.5));
  std::printf("  codegen+JIT     median %7.2f ms\n", Percentile(codegen_ms, 0.5));
  std::printf("  total           median %7.2f ms  (p20 %.2f, p80 %.2f, %d runs)\n", median,
              Percentile(total_ms, 0.2), Percentile(total_ms, 0.8), kReps);
  std::printf("  total CPU time  median %7.2f ms  (this thread)\n", Percentile(cpu_ms, 0.5));
  std::printf("  budget %.0f ms: ratio %.2f  %s\n", kBudgetMs, median / kBudgetMs,
              median <= kBudgetMs ? "OK" : "OVER BUDGET");
  return 0;
}

// A rough probe: best of a few runs, inputs of small integers (exact in float32).
int Gflops(const codegen::LlvmTarget& target) {
  constexpr int64_t kN = 1024;
  passes::PassOptions options;
  options.target = passes::LoweringTarget::kLlvm;
  Lowering l = TiledMatmul(ir::Expr(static_cast<int>(kN)), 32, 32);
  absl::StatusOr<ir::PrimFunc> f = passes::Lower(l.schedule, l.args, "matmul1024", options);
  if (!f.ok()) return 1;
  absl::StatusOr<std::shared_ptr<runtime::Module>> m = codegen::BuildJit({*f}, target);
  if (!m.ok()) {
    std::fprintf(stderr, "build failed: %s\n", std::string(m.status().message()).c_str());
    return 1;
  }
  absl::StatusOr<runtime::PackedFunction> fn = (*m)->GetFunction("matmul1024");
  std::vector<runtime::NDArray> arrays;
  for (int k = 0; k < 3; ++k) {
    arrays.push_back(*runtime::NDArray::Empty({kN, kN}, DLDataType{kDLFloat, 32, 1}));
    auto* p = static_cast<float*>(arrays.back().data());
    for (int64_t e = 0; e < kN * kN; ++e) p[e] = static_cast<float>((e * 7 + k) % 5) - 2.0f;
  }
  double best = 1e30;
  for (int r = 0; r < 5; ++r) {
    const Clock::time_point start = Clock::now();
    absl::Status s = fn->Call({&arrays[0], &arrays[1], &arrays[2]});
    const double ms = Ms(start, Clock::now());
    if (!s.ok()) return 1;
    best = std::min(best, ms);
  }
  std::printf("1024^3 float32 matmul (32x32 tiles, vectorized 32, parallel, k unrolled 4)\n");
  std::printf("  best of 5: %.2f ms = %.1f GFLOPS on %d threads\n", best,
              2.0 * kN * kN * kN / (best * 1e6), runtime::NumThreads());
  return 0;
}

}  // namespace
}  // namespace tunefarm

int main(int argc, char** argv) {
  // e.g. TUNEFARM_LOG=codegen=debug prints each build's phases.
  if (const char* levels = std::getenv("TUNEFARM_LOG")) spdlog::cfg::helpers::load_levels(levels);
  absl::StatusOr<tunefarm::codegen::LlvmTarget> target = tunefarm::codegen::ParseLlvmTarget("llvm");
  if (!target.ok()) return 1;
  std::printf("target: %s\n", target->ToString().substr(0, 80).c_str());
  int rc = tunefarm::CompileTime(*target);
  if (rc == 0 && argc > 1 && std::strcmp(argv[1], "--gflops") == 0) rc = tunefarm::Gflops(*target);
  return rc;
}
