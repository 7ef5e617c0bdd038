// Tuning-quality benchmark: tunes each workload with the model-based tuner (local builder and
// isolated runner, a fresh database per workload), then times the best config, the template's
// default and the vendor library side by side in this process (median of 5 repeats of >= 100
// ms; the 5 best configs found and the default are re-timed and the fastest kept). Targets: matmul
// 1024^3 >= 90 % of OpenBLAS at 1 and 2 threads; conv2d >= oneDNN on at least 3 of 5 ResNet-18
// layers; depthwise
// >= 1.2x oneDNN. Environment: BENCH_TRIALS (default 200) trials per workload;
// BENCH_ONLY=matmul|conv|depthwise; BENCH_TUNER (default xgb).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <string>
#include <unistd.h>
#include <vector>

#include "bench/support/median_time.h"
#include "bench/support/our_kernels.h"
#include "bench/support/vendor_kernels.h"
#include "compiler/space/config_json.h"
#include "runtime/core/thread_pool.h"
#include "tuner/measure/local_measure.h"
#include "tuner/search/strategy_factory.h"
#include "tuner/templates/template_registry.h"
#include "tuner/tuning_loop.h"

namespace tunefarm::bench {
namespace {

struct Case {
  std::string group;     // matmul | conv | depthwise
  std::string workload;  // the workload key tuned
  int threads;
  ConvShape vendor_conv;  // unused for matmul
  int64_t m = 0, n = 0, k = 0;
  double target_ratio;  // the issue's bar against the library
};

std::vector<Case> Cases() {
  std::vector<Case> c;
  for (int t : {1, 2})
    c.push_back({"matmul", "matmul:1024,1024,1024", t, {}, 1024, 1024, 1024, 0.9});
  const ConvShape layers[] = {{1, 64, 56, 56, 64, 3, 1, 1},
                              {1, 128, 28, 28, 128, 3, 1, 1},
                              {1, 256, 14, 14, 256, 3, 1, 1},
                              {1, 512, 7, 7, 512, 3, 1, 1},
                              {1, 64, 56, 56, 128, 1, 2, 0}};
  for (const ConvShape& s : layers) {
    char key[128];
    std::snprintf(key, sizeof(key), "conv2d_nchwc:%ld,%ld,%ld,%ld,%ld,%ld,%ld,%ld,%ld",
                  long(s.batch), long(s.in_channels), long(s.height), long(s.width),
                  long(s.out_channels), long(s.kernel), long(s.kernel), long(s.stride),
                  long(s.pad));
    for (int t : {1, 2}) c.push_back({"conv", key, t, s, 0, 0, 0, 1.0});
  }
  ConvShape dw{1, 32, 112, 112, 32, 3, 1, 1, 32};
  for (int t : {1, 2}) {
    c.push_back({"depthwise", "depthwise_conv2d_nchwc:1,32,112,112,3,3,1,1", t, dw, 0, 0, 0, 1.2});
  }
  return c;
}

int EnvInt(const char* name, int fallback) {
  const char* v = std::getenv(name);
  return v != nullptr ? std::atoi(v) : fallback;
}

// How many of the best configs found are re-timed side by side with the vendor.
constexpr size_t kRetimed = 5;

struct Outcome {
  double tuned_gflops = 0, default_gflops = 0, vendor_gflops = 0;
  std::string library, config;
  int trials = 0, errors = 0;
  double tune_seconds = 0;
};

absl::StatusOr<double> TimeOp(const topi::ScheduledOp& op, const std::string& name, double flops) {
  absl::StatusOr<OurKernel> kernel = OurScheduled(op, name, "");
  if (!kernel.ok()) return kernel.status();
  absl::StatusOr<double> s = MedianSeconds(kernel->run);
  if (!s.ok()) return s.status();
  return flops / *s / 1e9;
}

absl::StatusOr<Outcome> RunCase(const Case& c, int trials, const std::string& tuner_name,
                                const std::string& dir) {
  absl::StatusOr<tuner::Workload> w = tuner::ParseWorkloadKey(c.workload);
  if (!w.ok()) return w.status();
  absl::StatusOr<std::unique_ptr<tuner::Task>> task = tuner::CreateTask(*w, target::Target::Host());
  if (!task.ok()) return task.status();
  std::string db = dir + "/" + std::to_string(c.threads) + "t_" +
                   (*task)->workload().template_name +
                   std::to_string(std::hash<std::string>()(c.workload)) + ".db";
  std::filesystem::remove(db);
  absl::StatusOr<std::unique_ptr<tuner::RecordStore>> store = tuner::RecordStore::Open(db);
  if (!store.ok()) return store.status();

  tuner::MeasureOptions m;
  m.threads = c.threads;
  absl::StatusOr<tuner::LocalMeasure> measure =
      tuner::MakeLocalMeasure(m, "bench-" + std::to_string(c.threads) + "t");
  if (!measure.ok()) return measure.status();
  tuner::StrategyOptions so;
  so.name = tuner_name;
  so.seed = 1;
  absl::StatusOr<std::unique_ptr<tuner::StrategyBundle>> strategy =
      tuner::MakeSearchStrategy(**task, so);
  if (!strategy.ok()) return strategy.status();
  tuner::TuneOptions to;
  to.trials = trials;
  to.batch_size = 16;
  absl::StatusOr<tuner::TuneSummary> summary = tuner::Tune(
      **task, *(*strategy)->strategy, *measure->builder, *measure->runner, store->get(), to);
  if (!summary.ok()) return summary.status();
  if (!summary->best) return absl::InternalError("no config ran successfully");

  Outcome o;
  o.trials = summary->progress.trials_done;
  o.errors = summary->progress.errors;
  o.tune_seconds = summary->progress.elapsed_seconds;
  std::string error;
  runtime::SetNumThreads(c.threads, &error);
  SetVendorThreads(c.threads);
  const double flops = (*task)->flops();
  // Timings taken during tuning are short and noisy: re-time the few best in this process, as
  // the vendor is timed, and keep the fastest.
  absl::StatusOr<std::vector<tuner::Record>> records =
      (*store)->TaskRecords((*task)->key(), (*task)->target().str(), measure->runner->device_key(),
                            tuner::CacheFlush::kNone);
  if (!records.ok()) return records.status();
  std::vector<std::pair<double, std::string>> ranked;
  for (const tuner::Record& r : *records) {
    std::optional<double> median = tuner::MedianSeconds(r.repeat_seconds);
    if (r.error_kind == tuner::ErrorKind::kOk && median) ranked.push_back({*median, r.config_json});
  }
  std::sort(ranked.begin(), ranked.end());
  if (ranked.size() > kRetimed) ranked.resize(kRetimed);
  // The default config was the first trial: it competes too, whatever its noisy first timing.
  absl::StatusOr<space::Config> default_config = (*task)->DefaultConfig();
  if (!default_config.ok()) return default_config.status();
  ranked.push_back({0, space::ConfigToJson(*default_config)});
  for (const auto& [seconds, config_json] : ranked) {
    absl::StatusOr<space::Config> config = space::ConfigFromJson((*task)->space(), config_json);
    if (!config.ok()) return config.status();
    absl::StatusOr<topi::ScheduledOp> op = (*task)->Apply(*config);
    if (!op.ok()) return op.status();
    absl::StatusOr<double> gflops = TimeOp(*op, "tuned", flops);
    if (!gflops.ok()) return gflops.status();
    if (*gflops > o.tuned_gflops) {
      o.tuned_gflops = *gflops;
      o.config = config_json;
    }
  }
  absl::StatusOr<space::Config> def = (*task)->DefaultConfig();
  if (!def.ok()) return def.status();
  absl::StatusOr<topi::ScheduledOp> def_op = (*task)->Apply(*def);
  if (!def_op.ok()) return def_op.status();
  absl::StatusOr<double> def_gflops = TimeOp(*def_op, "default", flops);
  if (!def_gflops.ok()) return def_gflops.status();
  o.default_gflops = *def_gflops;

  absl::StatusOr<VendorKernel> vendor =
      c.group == "matmul" ? OpenBlasSgemm(c.m, c.n, c.k) : OneDnnConv2d(c.vendor_conv);
  if (!vendor.ok()) return vendor.status();
  absl::StatusOr<double> vendor_s = MedianSeconds([&] {
    vendor->run();
    return absl::OkStatus();
  });
  if (!vendor_s.ok()) return vendor_s.status();
  o.vendor_gflops = flops / *vendor_s / 1e9;
  o.library = vendor->library;
  return o;
}

int Main() {
  const int trials = EnvInt("BENCH_TRIALS", 200);
  const char* only = std::getenv("BENCH_ONLY");
  const char* tuner_env = std::getenv("BENCH_TUNER");
  const std::string tuner_name = tuner_env != nullptr ? tuner_env : "xgb";
  std::string dir = (std::filesystem::temp_directory_path() /
                     ("tunefarm_tune_bench_" + std::to_string(::getpid())))
                        .string();
  std::filesystem::create_directories(dir);
  std::printf("cpu: %s; tuner %s, %d trials per workload\n\n",
              topi::DetectHostCpu().ToString().c_str(), tuner_name.c_str(), trials);
  std::printf(
      "| workload | threads | tuned GFLOPS | default GFLOPS | library | library GFLOPS | "
      "tuned/library | target | trials (errors) | tuning s |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|---|\n");
  std::fflush(stdout);
  int failures = 0;
  std::map<int, std::pair<int, int>> conv_wins;  // threads -> (layers at or above oneDNN, layers)
  std::vector<std::string> configs;
  for (const Case& c : Cases()) {
    if (only != nullptr && c.group != only) continue;
    absl::StatusOr<Outcome> o = RunCase(c, trials, tuner_name, dir);
    if (!o.ok()) {
      std::printf("| %s | %d | error: %s |\n", c.workload.c_str(), c.threads,
                  std::string(o.status().message()).c_str());
      ++failures;
      continue;
    }
    double ratio = o->tuned_gflops / o->vendor_gflops;
    bool met = ratio >= c.target_ratio;
    if (c.group == "conv") {
      ++conv_wins[c.threads].second;
      conv_wins[c.threads].first += met ? 1 : 0;
    }
    std::printf("| %s | %d | %.1f | %.1f | %s | %.1f | %.2f | >= %.2f %s | %d (%d) | %.0f |\n",
                c.workload.c_str(), c.threads, o->tuned_gflops, o->default_gflops,
                o->library.c_str(), o->vendor_gflops, ratio, c.target_ratio, met ? "met" : "MISSED",
                o->trials, o->errors, o->tune_seconds);
    std::fflush(stdout);
    configs.push_back(c.workload + " @" + std::to_string(c.threads) + "t: " + o->config);
  }
  for (const auto& [threads, wins] : conv_wins) {
    std::printf("\nconv2d layers at or above oneDNN at %d thread(s): %d of %d (target: 3 of 5)",
                threads, wins.first, wins.second);
  }
  std::printf("\n");
  std::printf("\nbest configs:\n");
  for (const std::string& s : configs) std::printf("  %s\n", s.c_str());
  std::filesystem::remove_all(dir);
  return failures == 0 ? 0 : 1;
}

}  // namespace
}  // namespace tunefarm::bench

int main() { return tunefarm::bench::Main(); }
