// lower_bench: how long lowering a tiled matmul and a tiled conv2d takes. The tuner lowers
// thousands of candidates, so the target is at most 2 ms each; prints the median and the ratio
// to that budget.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

#include "compiler/ir/op.h"
#include "compiler/passes/lower.h"

namespace tunefarm {
namespace {

constexpr double kBudgetMs = 2.0;

struct Lowering {
  schedule::Schedule schedule;
  std::vector<te::Tensor> args;
};

Lowering TiledMatmul() {
  ir::Var n("n");
  te::Tensor a = te::placeholder({n, n}, ir::DataType::Float(32), "A");
  te::Tensor b = te::placeholder({n, n}, ir::DataType::Float(32), "B");
  ir::IterVar k = te::reduce_axis({0, n}, "k");
  te::Tensor c = *te::compute(
      {n, n},
      [&](const auto& i) {
        return te::sum(a({i[0], k->var}) * b({i[1], k->var}), {k});
      },
      "C");
  schedule::Schedule s = schedule::Schedule::Create({c.op()});
  ir::IterVar xo, yo, xi, yi, ko, ki;
  s[c].tile(c.op()->axis[0], c.op()->axis[1], 32, 8, &xo, &yo, &xi, &yi);
  s[c].split(c.op()->reduce_axis[0], 4, &ko, &ki);
  s[c].reorder({xo, yo, ko, xi, ki, yi}).vectorize(yi).unroll(ki).parallel(xo);
  return {s, {a, b, c}};
}

Lowering TiledConv2d() {
  int c_in = 64, c_out = 64, size = 56;
  te::Tensor data = te::placeholder({c_in, size, size}, ir::DataType::Float(32), "data");
  te::Tensor w = te::placeholder({c_out, c_in, 3, 3}, ir::DataType::Float(32), "W");
  te::Tensor pad = *te::compute(
      {c_in, size + 2, size + 2},
      [&](const auto& i) {
        ir::Expr inside = i[1] >= 1 && i[1] < size + 1 && i[2] >= 1 && i[2] < size + 1;
        return ir::IfThenElse(inside, data({i[0], i[1] - 1, i[2] - 1}), ir::Expr(0.0f));
      },
      "pad");
  ir::IterVar rc = te::reduce_axis({0, c_in}, "rc"), ry = te::reduce_axis({0, 3}, "ry"),
              rx = te::reduce_axis({0, 3}, "rx");
  te::Tensor out = *te::compute(
      {c_out, size, size},
      [&](const auto& i) {
        return te::sum(
            pad({rc->var, i[1] + ry->var, i[2] + rx->var}) * w({i[0], rc->var, ry->var, rx->var}),
            {rc, ry, rx});
      },
      "out");
  schedule::Schedule s = schedule::Schedule::Create({out.op()});
  s[pad].compute_inline();
  te::Tensor local = *s.cache_write(out, "local");
  ir::IterVar fo, fi, yo, yi, xo, xi;
  s[out].split(out.op()->axis[0], 16, &fo, &fi);
  s[out].tile(out.op()->axis[1], out.op()->axis[2], 4, 8, &yo, &xo, &yi, &xi);
  s[out].reorder({fo, yo, xo, fi, yi, xi}).vectorize(xi).parallel(fo);
  s[local].compute_at(s[out], xo);
  ir::IterVar rco, rci;
  s[local].split(local.op()->reduce_axis[0], 8, &rco, &rci);
  return {s, {data, w, out}};
}

double MedianLowerMs(const char* name, Lowering (*make)(), int reps) {
  std::vector<double> ms;
  for (int r = 0; r < reps; ++r) {
    Lowering l = make();  // building the schedule is part of what the tuner pays per candidate
    auto start = std::chrono::steady_clock::now();
    auto f = passes::Lower(l.schedule, l.args, name);
    auto end = std::chrono::steady_clock::now();
    if (!f.ok()) {
      std::fprintf(stderr, "lower_bench: %s failed: %s\n", name, f.status().ToString().c_str());
      return -1;
    }
    ms.push_back(std::chrono::duration<double, std::milli>(end - start).count());
  }
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

}  // namespace
}  // namespace tunefarm

int main() {
  using tunefarm::MedianLowerMs;
  std::printf("%-16s %12s %12s %10s\n", "workload", "median_ms", "budget_ms", "ratio");
  const struct {
    const char* name;
    tunefarm::Lowering (*make)();
  } cases[] = {{"tiled_matmul", tunefarm::TiledMatmul}, {"tiled_conv2d", tunefarm::TiledConv2d}};
  int failures = 0;
  for (const auto& c : cases) {
    double ms = MedianLowerMs(c.name, c.make, 51);
    if (ms < 0) {
      ++failures;
      continue;
    }
    std::printf("%-16s %12.3f %12.3f %10.2f\n", c.name, ms, tunefarm::kBudgetMs,
                ms / tunefarm::kBudgetMs);
  }
  return failures == 0 ? 0 : 1;
}
