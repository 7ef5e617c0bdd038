// Shared fixtures of the search tests: a synthetic config space whose "measurement" is a known
// smooth function (a single best point), a loop that drives a strategy against it, and a small
// real matmul template for feature extraction on lowered code.
#pragma once

#include <cmath>
#include <gtest/gtest.h>
#include <memory>
#include <string>
#include <vector>

#include "compiler/ir/op.h"
#include "compiler/space/config_space.h"
#include "compiler/te/tensor.h"
#include "compiler/topi/cpu_info.h"
#include "tuner/search_strategy.h"
#include "tuner/task.h"
#include "tuner/task_template.h"

namespace tunefarm::tuner::testing {

// Three split knobs of 64, 64 and 256 into two parts (7 x 7 x 9 = 441 points) and a constraint
// that drops points whose two first inner factors multiply past 512 (the best point stays valid).
inline std::unique_ptr<space::ConfigSpace> MakeSyntheticSpace() {
  auto space = std::make_unique<space::ConfigSpace>();
  EXPECT_TRUE(space->DefineSplit("x", {.extent = 64, .num_parts = 2}).ok());
  EXPECT_TRUE(space->DefineSplit("y", {.extent = 64, .num_parts = 2}).ok());
  EXPECT_TRUE(space->DefineSplit("z", {.extent = 256, .num_parts = 2}).ok());
  EXPECT_TRUE(
      space
          ->AddConstraint("inner tile <= 512",
                          [](const space::Config& c) {
                            return c.SplitFactors("x")->back() * c.SplitFactors("y")->back() <= 512;
                          })
          .ok());
  return space;
}

// A smooth bump in log2 of the inner factors, best (1.0) at x=8, y=4, z=32; `sign` -1 gives the
// anti-correlated task, `shift` moves the bump (a related task with another optimum).
inline double SyntheticThroughput(const space::Config& c, double sign = 1, double shift = 0) {
  double x = std::log2(static_cast<double>(c.SplitFactors("x")->back()));
  double y = std::log2(static_cast<double>(c.SplitFactors("y")->back()));
  double z = std::log2(static_cast<double>(c.SplitFactors("z")->back()));
  double d = (x - 3 - shift) * (x - 3 - shift) + (y - 2) * (y - 2) + 0.5 * (z - 5) * (z - 5);
  double f = std::exp(-d / 6.0);
  return sign > 0 ? f : 1.1 - f;
}

inline MeasureResult SyntheticResult(double throughput) {
  MeasureResult r;
  if (throughput <= 0) {
    r.error_kind = ErrorKind::kRuntimeError;
  } else {
    r.repeat_seconds = {1.0 / throughput};
  }
  return r;
}

struct SearchRun {
  std::vector<int64_t> proposed;  // config indices in proposal order
  double best = 0;
  int trials_to_best = -1;  // proposals made when `best` was first reached
};

// Drives `strategy` in batches against SyntheticThroughput until `budget` proposals.
inline SearchRun RunSynthetic(SearchStrategy& strategy, int budget, int batch, double sign = 1,
                              double shift = 0) {
  SearchRun run;
  while (static_cast<int>(run.proposed.size()) < budget) {
    absl::StatusOr<std::vector<space::Config>> configs =
        strategy.NextBatch(std::min(batch, budget - static_cast<int>(run.proposed.size())));
    EXPECT_TRUE(configs.ok()) << configs.status();
    if (!configs.ok() || configs->empty()) break;
    std::vector<MeasureResult> results;
    for (const space::Config& c : *configs) {
      EXPECT_TRUE(c.space().IsValid(c));
      double t = SyntheticThroughput(c, sign, shift);
      run.proposed.push_back(c.index());
      if (t > run.best) {
        run.best = t;
        run.trials_to_best = static_cast<int>(run.proposed.size());
      }
      results.push_back(SyntheticResult(t));
    }
    EXPECT_TRUE(strategy.Update(*configs, results).ok());
  }
  return run;
}

// The best throughput of any valid point of `space` (a full scan).
inline double BestSynthetic(const space::ConfigSpace& space, double sign = 1, double shift = 0) {
  double best = 0;
  for (int64_t i = 0; i < space.size(); ++i) {
    space::Config c = *space.Get(i);
    if (space.IsValid(c)) best = std::max(best, SyntheticThroughput(c, sign, shift));
  }
  return best;
}

// C[m, n] = sum_k A[m, k] * B[k, n] with knobs: splits of i, j, k into two parts, the annotation
// of the inner j loop, whether the outer i loop runs in parallel, and a "fail" choice whose
// value 1 makes Apply fail (a config that cannot be applied).
class TestMatmulTemplate final : public TaskTemplate {
 public:
  TestMatmulTemplate(int64_t m, int64_t n, int64_t k) : m_(m), n_(n), k_(k) {}

  absl::Status DefineSpace(space::ConfigSpace& space) const override {
    if (auto s = space.DefineSplit("tile_i", {.extent = m_, .num_parts = 2}); !s.ok()) return s;
    if (auto s = space.DefineSplit("tile_j", {.extent = n_, .num_parts = 2, .max_innermost = 32});
        !s.ok()) {
      return s;
    }
    if (auto s = space.DefineSplit("tile_k", {.extent = k_, .num_parts = 2}); !s.ok()) return s;
    if (auto s = space.DefineAnnotate(
            "ann_j",
            {space::Annotation::kNone, space::Annotation::kVectorize, space::Annotation::kUnroll});
        !s.ok()) {
      return s;
    }
    if (auto s = space.DefineChoice("parallel", {int64_t{0}, int64_t{1}}); !s.ok()) return s;
    return space.DefineChoice("fail", {int64_t{0}, int64_t{1}});
  }

  absl::StatusOr<space::Config> DefaultConfig(const space::ConfigSpace& space) const override {
    return space.Get(0);
  }

  absl::StatusOr<topi::ScheduledOp> Apply(const space::Config& config) const override {
    if (*config.ChoiceInt("fail") == 1) {
      return absl::InvalidArgumentError("test template: this config cannot be applied");
    }
    auto [a, b, c] = Declare();
    schedule::Schedule s = schedule::Schedule::Create({c.op()});
    schedule::Stage& st = s[c];
    ir::IterVar io, ii, jo, ji, ko, ki;
    st.split(c.op()->axis[0], config.SplitFactors("tile_i")->back(), &io, &ii);
    st.split(c.op()->axis[1], config.SplitFactors("tile_j")->back(), &jo, &ji);
    st.split(c.op()->reduce_axis[0], config.SplitFactors("tile_k")->back(), &ko, &ki);
    st.reorder({io, jo, ko, ii, ki, ji});
    space::Annotation ann = *config.AnnotationOf("ann_j");
    if (ann == space::Annotation::kVectorize) st.vectorize(ji);
    if (ann == space::Annotation::kUnroll) st.unroll(ji);
    if (*config.ChoiceInt("parallel") == 1) st.parallel(io);
    return topi::ScheduledOp{s, {a, b, c}};
  }

  absl::StatusOr<topi::ScheduledOp> Reference(const space::Config&) const override {
    auto [a, b, c] = Declare();
    return topi::ScheduledOp{schedule::Schedule::Create({c.op()}), {a, b, c}};
  }

  double Flops() const override { return 2.0 * static_cast<double>(m_ * n_ * k_); }

 private:
  std::tuple<te::Tensor, te::Tensor, te::Tensor> Declare() const {
    te::Tensor a = te::placeholder({m_, k_}, ir::DataType::Float(32), "A");
    te::Tensor b = te::placeholder({k_, n_}, ir::DataType::Float(32), "B");
    ir::IterVar k = te::reduce_axis(ir::Range{0, k_}, "k");
    te::Tensor c = *te::compute(
        {m_, n_},
        [&](const std::vector<ir::Var>& i) {
          return te::sum(a({i[0], k->var}) * b({k->var, i[1]}), {k});
        },
        "C");
    return {a, b, c};
  }

  int64_t m_, n_, k_;
};

inline std::unique_ptr<Task> MakeMatmulTask(int64_t m, int64_t n, int64_t k) {
  absl::StatusOr<std::unique_ptr<Task>> task = Task::FromTemplate(
      Workload{"test_matmul", {m, n, k}, "float32"}, std::make_unique<TestMatmulTemplate>(m, n, k),
      target::Target::Host(), topi::Avx2Cpu());
  EXPECT_TRUE(task.ok()) << task.status();
  return task.ok() ? *std::move(task) : nullptr;
}

}  // namespace tunefarm::tuner::testing
