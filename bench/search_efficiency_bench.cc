// Search-efficiency benchmark: how many trials the model-based tuner (xgb) and random search need
// to reach 95 % of the best throughput any run found, per workload, for 3 seeds; the median is
// compared (target: xgb needs at most a third of random's trials). Every run measures for real
// with the local builder and isolated runner on one thread, without the default config first
// (it would hand both strategies a good start), each into a fresh database.
// Environment: BENCH_TRIALS (default 150) trials per run; BENCH_SEEDS (default 3).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <unistd.h>
#include <vector>

#include "tuner/measure/local_builder.h"
#include "tuner/measure/local_runner.h"
#include "tuner/search/strategy_factory.h"
#include "tuner/templates/template_registry.h"
#include "tuner/tuning_loop.h"

namespace tunefarm::bench {
namespace {

int EnvInt(const char* name, int fallback) {
  const char* v = std::getenv(name);
  return v != nullptr ? std::atoi(v) : fallback;
}

// Best throughput (GFLOPS) after each trial of one run, in measurement order.
absl::StatusOr<std::vector<double>> RunCurve(const tuner::Task& task, const std::string& tuner_name,
                                             uint64_t seed, int trials, const std::string& db) {
  std::filesystem::remove(db);
  absl::StatusOr<std::unique_ptr<tuner::RecordStore>> store = tuner::RecordStore::Open(db);
  if (!store.ok()) return store.status();
  tuner::MeasureOptions m;
  m.threads = 1;
  tuner::LocalBuilderOptions bo;
  bo.measure = m;
  tuner::LocalRunnerOptions ro;
  ro.measure = m;
  ro.device_key = "bench-1t";
  absl::StatusOr<std::unique_ptr<tuner::LocalBuilder>> builder = tuner::LocalBuilder::Create(bo);
  if (!builder.ok()) return builder.status();
  absl::StatusOr<std::unique_ptr<tuner::LocalRunner>> runner = tuner::LocalRunner::Create(ro);
  if (!runner.ok()) return runner.status();
  tuner::StrategyOptions so;
  so.name = tuner_name;
  so.seed = seed;
  absl::StatusOr<std::unique_ptr<tuner::StrategyBundle>> strategy =
      tuner::MakeSearchStrategy(task, so);
  if (!strategy.ok()) return strategy.status();
  tuner::TuneOptions to;
  to.trials = trials;
  to.batch_size = 16;
  to.measure_default_first = false;
  to.job_id = "run";
  absl::StatusOr<tuner::TuneSummary> summary =
      tuner::Tune(task, *(*strategy)->strategy, **builder, **runner, store->get(), to);
  if (!summary.ok()) return summary.status();
  absl::StatusOr<std::vector<tuner::Record>> history = (*store)->JobHistory("run");
  if (!history.ok()) return history.status();
  std::vector<double> curve;
  double best = 0;
  for (const tuner::Record& r : *history) {
    std::optional<double> median = tuner::MedianSeconds(r.repeat_seconds);
    if (r.error_kind == tuner::ErrorKind::kOk && median && *median > 0) {
      best = std::max(best, task.flops() / *median / 1e9);
    }
    curve.push_back(best);
  }
  return curve;
}

// 1-based trial at which `curve` first reaches `threshold`; trials + 1 when it never does.
int TrialsToReach(const std::vector<double>& curve, double threshold, int trials) {
  for (size_t i = 0; i < curve.size(); ++i) {
    if (curve[i] >= threshold) return static_cast<int>(i) + 1;
  }
  return trials + 1;
}

std::string Cell(int n, int trials) {
  return n > trials ? ">" + std::to_string(trials) : std::to_string(n);
}

int Main() {
  const int trials = EnvInt("BENCH_TRIALS", 150);
  const int seeds = EnvInt("BENCH_SEEDS", 3);
  const std::vector<std::string> workloads = {"matmul:512,512,512",
                                              "conv2d_nchwc:1,128,28,28,128,3,3,1,1"};
  const std::vector<std::string> tuners = {"xgb", "random"};
  std::string dir = (std::filesystem::temp_directory_path() /
                     ("tunefarm_search_bench_" + std::to_string(::getpid())))
                        .string();
  std::filesystem::create_directories(dir);
  std::printf("%d trials per run, %d seeds, 1 thread; trials to reach 95%% of the best found\n\n",
              trials, seeds);
  std::printf("| workload | tuner | trials per seed | median | best GFLOPS of its runs |\n");
  std::printf("|---|---|---|---|---|\n");
  int failures = 0;
  std::vector<std::string> verdicts;
  for (const std::string& key : workloads) {
    absl::StatusOr<tuner::Workload> w = tuner::ParseWorkloadKey(key);
    absl::StatusOr<std::unique_ptr<tuner::Task>> task =
        w.ok() ? tuner::CreateTask(*w, "llvm") : w.status();
    if (!task.ok()) {
      std::printf("| %s | error: %s |\n", key.c_str(),
                  std::string(task.status().message()).c_str());
      ++failures;
      continue;
    }
    // curves[t][s]: tuner t, seed s.
    std::vector<std::vector<std::vector<double>>> curves(tuners.size());
    double best_found = 0;
    for (size_t t = 0; t < tuners.size(); ++t) {
      for (int s = 1; s <= seeds; ++s) {
        absl::StatusOr<std::vector<double>> c =
            RunCurve(**task, tuners[t], s, trials, dir + "/run.db");
        if (!c.ok()) {
          std::printf("| %s | %s | error: %s |\n", key.c_str(), tuners[t].c_str(),
                      std::string(c.status().message()).c_str());
          ++failures;
          c = std::vector<double>();
        }
        if (!c->empty()) best_found = std::max(best_found, c->back());
        curves[t].push_back(*std::move(c));
      }
    }
    std::vector<int> medians;
    for (size_t t = 0; t < tuners.size(); ++t) {
      std::vector<int> needed;
      std::string cells;
      double best_of_tuner = 0;
      for (const std::vector<double>& c : curves[t]) {
        needed.push_back(TrialsToReach(c, 0.95 * best_found, trials));
        cells += (cells.empty() ? "" : ", ") + Cell(needed.back(), trials);
        if (!c.empty()) best_of_tuner = std::max(best_of_tuner, c.back());
      }
      std::sort(needed.begin(), needed.end());
      int median = needed[needed.size() / 2];
      medians.push_back(median);
      std::printf("| %s | %s | %s | %s | %.1f |\n", key.c_str(), tuners[t].c_str(), cells.c_str(),
                  Cell(median, trials).c_str(), best_of_tuner);
      std::fflush(stdout);
    }
    char line[256];
    std::snprintf(line, sizeof(line),
                  "%s: xgb needs %s trials, random %s: ratio %.2f (target <= 0.33; a run that "
                  "never reached 95%% counts as %d)",
                  key.c_str(), Cell(medians[0], trials).c_str(), Cell(medians[1], trials).c_str(),
                  static_cast<double>(medians[0]) / medians[1], trials + 1);
    verdicts.push_back(line);
  }
  std::printf("\n");
  for (const std::string& v : verdicts) std::printf("%s\n", v.c_str());
  std::filesystem::remove_all(dir);
  return failures == 0 ? 0 : 1;
}

}  // namespace
}  // namespace tunefarm::bench

int main() { return tunefarm::bench::Main(); }
