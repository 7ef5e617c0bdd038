// Search-efficiency benchmark: how many trials the model-based tuner (xgb) and random search need
// to reach 95 % of the best throughput any run found, per workload, for 5 seeds; the median is
// compared (targets: xgb at most a third of random's trials, warmed by another device's records
// at most a tenth). Runs measure for real with the
// local builder and isolated runner on one thread, without the default config first (it would
// hand both strategies a good start), each into a fresh database. A config measured by an earlier
// run of the same workload is not measured again: it keeps its first result, so every strategy
// searches the same landscape and the drift of a shared VM between runs (10 % over minutes, as
// large as the 95 % band) does not decide the comparison. Rows: "xgb" cold; "random";
// "xgb+shape" warmed by 64 random records of a related shape on this machine, as earlier tuning
// would leave them; "xgb+device" warmed by 64 random records of the same workload built for another
// CPU (-mcpu=haswell: AVX2 and 16 vector registers instead of AVX-512's 32, under its own device
// key), as another device of a farm would leave them; "xgb-global" cold without the local search
// and growing batches (the model-based search before them), to show what they add.
// Environment: BENCH_TRIALS (default 96) trials per run; BENCH_SEEDS (default 5); BENCH_BATCH
// (default 16) candidates per batch; BENCH_WORKLOAD: one workload key instead of the four;
// BENCH_TUNERS: a comma-separated subset of the rows; BENCH_MEMO_DB: a record database that keeps
// every measurement of the runs, from which a later run starts (only configs it never measured
// are measured again): strategies compared on one recorded landscape, which is how a change to a
// search is tried on one landscape. Its table says how many results came from the file. The 95 %
// reference is the best any measurement of the landscape showed (earlier runs' too, with the
// file). BENCH_XGB: "name=value,..." settings of the xgb rows (local_fraction, local_parents,
// min_train_rows, epsilon, grow, rounds, max_depth, eta, regression), to try a change.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <string>
#include <unistd.h>
#include <vector>

#include "compiler/space/config_json.h"
#include "compiler/target/target.h"
#include "tuner/measure/local_measure.h"
#include "tuner/search/random_search.h"
#include "tuner/search/strategy_factory.h"
#include "tuner/templates/template_registry.h"
#include "tuner/tuning_loop.h"

namespace tunefarm::bench {
namespace {

int EnvInt(const char* name, int fallback) {
  const char* v = std::getenv(name);
  return v != nullptr ? std::atoi(v) : fallback;
}

std::vector<std::string> SplitList(const std::string& text);

// Results by config JSON, shared by every run of one workload.
using Memo = std::map<std::string, tuner::MeasureResult>;

// Builds only the configs the memo has no result for (the others get an empty library path).
class MemoBuilder final : public tuner::Builder {
 public:
  MemoBuilder(tuner::Builder& real, const Memo& memo) : real_(real), memo_(memo) {}
  std::vector<tuner::BuildResult> Build(const std::vector<tuner::MeasureInput>& inputs) override {
    std::vector<tuner::MeasureInput> missing;
    for (const tuner::MeasureInput& in : inputs) {
      if (!memo_.contains(space::ConfigToJson(in.config))) missing.push_back(in);
    }
    std::vector<tuner::BuildResult> built = real_.Build(missing);
    std::vector<tuner::BuildResult> out;
    size_t next = 0;
    for (const tuner::MeasureInput& in : inputs) {
      out.push_back(memo_.contains(space::ConfigToJson(in.config)) ? tuner::BuildResult{}
                                                                   : built[next++]);
    }
    return out;
  }

 private:
  tuner::Builder& real_;
  const Memo& memo_;
};

// Measurements made in this process, to keep in BENCH_MEMO_DB.
using Fresh = std::vector<std::pair<space::Config, tuner::MeasureResult>>;

// Answers remembered configs from the memo and measures the rest, remembering them.
class MemoRunner final : public tuner::Runner {
 public:
  MemoRunner(tuner::Runner& real, Memo& memo, Fresh& fresh)
      : real_(real), memo_(memo), fresh_(fresh) {}
  std::vector<tuner::MeasureResult> Run(const std::vector<tuner::MeasureInput>& inputs,
                                        const std::vector<tuner::BuildResult>& builds,
                                        double best_seconds) override {
    std::vector<tuner::MeasureInput> missing_inputs;
    std::vector<tuner::BuildResult> missing_builds;
    for (size_t i = 0; i < inputs.size(); ++i) {
      if (!memo_.contains(space::ConfigToJson(inputs[i].config))) {
        missing_inputs.push_back(inputs[i]);
        missing_builds.push_back(builds[i]);
      }
    }
    std::vector<tuner::MeasureResult> measured =
        real_.Run(missing_inputs, missing_builds, best_seconds);
    for (size_t i = 0; i < missing_inputs.size(); ++i) {
      memo_[space::ConfigToJson(missing_inputs[i].config)] = measured[i];
      fresh_.emplace_back(missing_inputs[i].config, measured[i]);
    }
    std::vector<tuner::MeasureResult> out;
    for (const tuner::MeasureInput& in : inputs)
      out.push_back(memo_[space::ConfigToJson(in.config)]);
    return out;
  }
  std::string device_key() const override { return real_.device_key(); }

 private:
  tuner::Runner& real_;
  Memo& memo_;
  Fresh& fresh_;
};

// Every run measures on one thread, filed under one device key.
absl::StatusOr<tuner::LocalMeasure> OneThreadMeasure(const std::string& device_key) {
  tuner::MeasureOptions m;
  m.threads = 1;
  return tuner::MakeLocalMeasure(m, device_key);
}

// The device key of every run; the "other device" of xgb+device is a haswell build of the same
// workload, filed under its own key.
constexpr char kDeviceKey[] = "bench-1t";
constexpr char kOtherDeviceKey[] = "bench-haswell-1t";
constexpr char kOtherDeviceTarget[] = "llvm -mcpu=haswell";

// The results BENCH_MEMO_DB holds for `task` into `memo` (their count in `loaded`); the store,
// or null without the variable.
absl::StatusOr<std::unique_ptr<tuner::RecordStore>> LoadMemo(const tuner::Task& task, Memo& memo,
                                                             size_t& loaded) {
  loaded = 0;
  const char* path = std::getenv("BENCH_MEMO_DB");
  if (path == nullptr) return nullptr;
  absl::StatusOr<std::unique_ptr<tuner::RecordStore>> store = tuner::RecordStore::Open(path);
  if (!store.ok()) return store.status();
  absl::StatusOr<std::vector<tuner::Record>> records =
      (*store)->TaskRecords(task.key(), task.target().str(), kDeviceKey, tuner::CacheFlush::kNone);
  if (!records.ok()) return records.status();
  for (const tuner::Record& r : *records) {
    absl::StatusOr<space::Config> c = space::ConfigFromJson(task.space(), r.config_json);
    if (!c.ok()) continue;
    loaded += memo.emplace(space::ConfigToJson(*c), tuner::ResultOfRecord(r)).second ? 1 : 0;
  }
  return store;
}

// Records of `key` built for `target` (random search, `trials` trials) under `device_key`: what
// xgb+shape and xgb+device warm their models from, as earlier tuning would leave them.
absl::StatusOr<std::unique_ptr<tuner::RecordStore>> SourceRecords(const std::string& key,
                                                                  const target::Target& target,
                                                                  const std::string& device_key,
                                                                  int trials,
                                                                  const std::string& db) {
  std::filesystem::remove(db);
  absl::StatusOr<std::unique_ptr<tuner::RecordStore>> store = tuner::RecordStore::Open(db);
  if (!store.ok()) return store.status();
  absl::StatusOr<tuner::Workload> w = tuner::ParseWorkloadKey(key);
  if (!w.ok()) return w.status();
  absl::StatusOr<std::unique_ptr<tuner::Task>> task = tuner::CreateTask(*w, target);
  if (!task.ok()) return task.status();
  absl::StatusOr<tuner::LocalMeasure> measure = OneThreadMeasure(device_key);
  if (!measure.ok()) return measure.status();
  tuner::RandomSearch random((*task)->space(), 99);
  tuner::TuneOptions to;
  to.trials = trials;
  absl::StatusOr<tuner::TuneSummary> summary =
      tuner::Tune(**task, random, *measure->builder, *measure->runner, store->get(), to);
  if (!summary.ok()) return summary.status();
  return store;
}

// BENCH_XGB's "name=value,..." onto the model-based search's settings (for trying a change).
absl::Status ApplyXgbSettings(const char* text, tuner::ModelBasedOptions& o) {
  if (text == nullptr) return absl::OkStatus();
  for (const std::string& item : SplitList(text)) {
    const size_t eq = item.find('=');
    const std::string name = item.substr(0, eq);
    const double v = eq == std::string::npos ? 0 : std::atof(item.c_str() + eq + 1);
    if (name == "local_fraction") {
      o.local_fraction = v;
    } else if (name == "local_parents") {
      o.local_parents = static_cast<int>(v);
    } else if (name == "min_train_rows") {
      o.min_train_rows = static_cast<int>(v);
    } else if (name == "epsilon") {
      o.epsilon = v;
    } else if (name == "grow") {
      o.grow_batches = v != 0;
    } else if (name == "rounds") {
      o.xgb.rounds = static_cast<int>(v);
    } else if (name == "max_depth") {
      o.xgb.max_depth = static_cast<int>(v);
    } else if (name == "eta") {
      o.xgb.eta = v;
    } else if (name == "regression") {
      o.xgb.objective =
          v != 0 ? tuner::XgbObjective::kRegression : tuner::XgbObjective::kRankPairwise;
    } else {
      return absl::InvalidArgumentError("BENCH_XGB: unknown setting '" + name + "'");
    }
  }
  return absl::OkStatus();
}

// Best throughput (GFLOPS) after each trial of one run, in measurement order.
absl::StatusOr<std::vector<double>> RunCurve(const tuner::Task& task, const std::string& tuner_name,
                                             uint64_t seed, int trials, int batch,
                                             const std::string& db, Memo& memo, Fresh& fresh,
                                             tuner::RecordStore* transfer_from = nullptr) {
  std::filesystem::remove(db);
  absl::StatusOr<std::unique_ptr<tuner::RecordStore>> store = tuner::RecordStore::Open(db);
  if (!store.ok()) return store.status();
  absl::StatusOr<tuner::LocalMeasure> measure = OneThreadMeasure(kDeviceKey);
  if (!measure.ok()) return measure.status();
  tuner::StrategyOptions so;
  so.name = tuner_name == "random" ? "random" : "xgb";
  so.seed = seed;
  so.device_key = kDeviceKey;
  if (tuner_name == "xgb-global") {
    so.model_based.local_fraction = 0;
    so.model_based.grow_batches = false;
  } else if (so.name == "xgb") {
    if (absl::Status s = ApplyXgbSettings(std::getenv("BENCH_XGB"), so.model_based); !s.ok()) {
      return s;
    }
  }
  if (transfer_from != nullptr) {
    so.transfer_from = transfer_from;
    so.make_task = [](const tuner::Workload& w) {
      return tuner::CreateTask(w, target::Target::Host());
    };
  }
  absl::StatusOr<std::unique_ptr<tuner::StrategyBundle>> strategy =
      tuner::MakeSearchStrategy(task, so);
  if (!strategy.ok()) return strategy.status();
  tuner::TuneOptions to;
  to.trials = trials;
  to.batch_size = batch;
  to.measure_default_first = false;
  to.job_id = "run";
  MemoBuilder memo_builder(*measure->builder, memo);
  MemoRunner memo_runner(*measure->runner, memo, fresh);
  absl::StatusOr<tuner::TuneSummary> summary =
      tuner::Tune(task, *(*strategy)->strategy, memo_builder, memo_runner, store->get(), to);
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

// The median of `values` (the upper one of an even count).
template <typename T>
T Median(std::vector<T> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

std::vector<std::string> SplitList(const std::string& text) {
  std::vector<std::string> out;
  size_t begin = 0;
  while (begin <= text.size()) {
    size_t comma = text.find(',', begin);
    if (comma == std::string::npos) comma = text.size();
    if (comma > begin) out.push_back(text.substr(begin, comma - begin));
    begin = comma + 1;
  }
  return out;
}

int Main() {
  const int trials = EnvInt("BENCH_TRIALS", 96);
  const int seeds = EnvInt("BENCH_SEEDS", 5);
  const int batch = EnvInt("BENCH_BATCH", 16);
  // One workload of each template a model's layers tune with. The conv layers are those whose best
  // points are rare (on a 28x28 layer the blocked conv's space is flat at the top: random points
  // reach 95 % of the best within about 5 trials, so no search can need a third of that).
  std::vector<std::string> workloads = {"matmul:512,512,512", "dense:16,1024,1024",
                                        "conv2d_nchwc:1,512,7,7,512,3,3,1,1",
                                        "depthwise_conv2d_nchwc:1,256,28,28,3,3,1,1"};
  if (const char* only = std::getenv("BENCH_WORKLOAD")) workloads = {only};
  std::vector<std::string> tuners = {"xgb", "random", "xgb+shape", "xgb+device", "xgb-global"};
  if (const char* only = std::getenv("BENCH_TUNERS")) tuners = SplitList(only);
  // The related shape each workload's xgb+shape runs learn from first.
  const std::map<std::string, std::string> related = {
      {"matmul:512,512,512", "matmul:384,384,384"},
      {"dense:16,1024,1024", "dense:16,768,768"},
      {"conv2d_nchwc:1,512,7,7,512,3,3,1,1", "conv2d_nchwc:1,256,14,14,256,3,3,1,1"},
      {"depthwise_conv2d_nchwc:1,256,28,28,3,3,1,1", "depthwise_conv2d_nchwc:1,128,56,56,3,3,1,1"}};
  absl::StatusOr<target::Target> other_device = target::ParseTarget(kOtherDeviceTarget);
  if (!other_device.ok()) {
    std::printf("error: %s\n", std::string(other_device.status().message()).c_str());
    return 1;
  }
  std::string dir = (std::filesystem::temp_directory_path() /
                     ("tunefarm_search_bench_" + std::to_string(::getpid())))
                        .string();
  std::filesystem::create_directories(dir);
  std::printf(
      "%d trials per run in batches of %d, %d seeds, 1 thread; trials to reach 95%% (99%%) of the "
      "best any run found, and the best after 16 and 32 trials as a fraction of it (median)\n\n",
      trials, batch, seeds);
  std::printf(
      "| workload | tuner | to 95%%, per seed | median | to 99%%, per seed | median | at 16 | at "
      "32 "
      "| best GFLOPS of its runs |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|\n");
  int failures = 0;
  std::vector<std::string> verdicts;
  for (const std::string& key : workloads) {
    absl::StatusOr<tuner::Workload> w = tuner::ParseWorkloadKey(key);
    absl::StatusOr<std::unique_ptr<tuner::Task>> task =
        w.ok() ? tuner::CreateTask(*w, target::Target::Host()) : w.status();
    if (!task.ok()) {
      std::printf("| %s | error: %s |\n", key.c_str(),
                  std::string(task.status().message()).c_str());
      ++failures;
      continue;
    }
    // curves[t][s]: tuner t, seed s.
    std::vector<std::vector<std::vector<double>>> curves(tuners.size());
    Memo memo;
    Fresh fresh;
    size_t loaded = 0;
    absl::StatusOr<std::unique_ptr<tuner::RecordStore>> memo_db = LoadMemo(**task, memo, loaded);
    if (!memo_db.ok()) {
      std::printf("error: BENCH_MEMO_DB: %s\n", std::string(memo_db.status().message()).c_str());
      return 1;
    }
    std::map<std::string, std::unique_ptr<tuner::RecordStore>> sources;
    auto source_for = [&](const std::string& tuner_name) -> tuner::RecordStore* {
      if (tuner_name != "xgb+shape" && tuner_name != "xgb+device") return nullptr;
      if (auto it = sources.find(tuner_name); it != sources.end()) return it->second.get();
      const bool device = tuner_name == "xgb+device";
      auto it = related.find(key);
      absl::StatusOr<std::unique_ptr<tuner::RecordStore>> s =
          device ? SourceRecords(key, *other_device, kOtherDeviceKey, 64, dir + "/device.db")
          : it != related.end()
              ? SourceRecords(it->second, target::Target::Host(), kDeviceKey, 64, dir + "/shape.db")
              : absl::NotFoundError("no related shape listed");
      if (!s.ok()) {
        std::printf("(%s: no transfer source: %s)\n", tuner_name.c_str(),
                    std::string(s.status().message()).c_str());
        sources[tuner_name] = nullptr;
        return nullptr;
      }
      return (sources[tuner_name] = *std::move(s)).get();
    };
    double best_found = 0;
    for (size_t t = 0; t < tuners.size(); ++t) {
      tuner::RecordStore* source = source_for(tuners[t]);
      for (int s = 1; s <= seeds; ++s) {
        absl::StatusOr<std::vector<double>> c =
            RunCurve(**task, tuners[t], s, trials, batch, dir + "/run.db", memo, fresh, source);
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
    // The reference is the best any measurement of this landscape showed: this process's runs,
    // and with BENCH_MEMO_DB earlier ones too, so that tables of separate runs compare.
    for (const auto& [json, r] : memo) {
      std::optional<double> median = tuner::MedianSeconds(r.repeat_seconds);
      if (r.error_kind == tuner::ErrorKind::kOk && median && *median > 0) {
        best_found = std::max(best_found, (*task)->flops() / *median / 1e9);
      }
    }
    if (*memo_db != nullptr && !fresh.empty()) {
      std::vector<tuner::Record> keep;
      for (const auto& [config, result] : fresh) {
        keep.push_back(tuner::MakeRecord(**task, config, result, kDeviceKey, tuner::TuneOptions{}));
      }
      if (absl::Status st = (*memo_db)->InsertBatch(keep); !st.ok()) {
        std::printf("(BENCH_MEMO_DB: not kept: %s)\n", std::string(st.message()).c_str());
      }
    }
    std::printf(
        "| %s | (measured for real: %zu distinct configs, %zu of them by an earlier run) | | | | "
        "| | | |\n",
        key.c_str(), memo.size(), loaded);
    std::map<std::string, int> medians;
    for (size_t t = 0; t < tuners.size(); ++t) {
      std::string row[2];
      double best_of_tuner = 0;
      std::vector<double> at16, at32;
      for (const std::vector<double>& c : curves[t]) {
        auto at = [&](size_t n) {
          return c.empty() || best_found <= 0 ? 0.0 : c[std::min(n, c.size()) - 1] / best_found;
        };
        at16.push_back(at(16));
        at32.push_back(at(32));
        if (!c.empty()) best_of_tuner = std::max(best_of_tuner, c.back());
      }
      for (int level = 0; level < 2; ++level) {
        const double fraction = level == 0 ? 0.95 : 0.99;
        std::vector<int> needed;
        std::string cells;
        for (const std::vector<double>& c : curves[t]) {
          needed.push_back(TrialsToReach(c, fraction * best_found, trials));
          cells += (cells.empty() ? "" : ", ") + Cell(needed.back(), trials);
        }
        const int median = Median(needed);
        if (level == 0) medians[tuners[t]] = median;
        row[level] = cells + " | " + Cell(median, trials);
      }
      std::printf("| %s | %s | %s | %s | %.2f | %.2f | %.1f |\n", key.c_str(), tuners[t].c_str(),
                  row[0].c_str(), row[1].c_str(), Median(at16), Median(at32), best_of_tuner);
      std::fflush(stdout);
    }
    if (!medians.contains("random")) continue;
    std::string verdict = key + ": random needs " + Cell(medians["random"], trials) + " trials";
    for (const auto& [name, target] :
         std::vector<std::pair<std::string, double>>{{"xgb", 1.0 / 3},
                                                     {"xgb+shape", 1.0 / 3},
                                                     {"xgb+device", 0.1},
                                                     {"xgb-global", 1.0 / 3}}) {
      if (!medians.contains(name)) continue;
      char part[160];
      std::snprintf(part, sizeof(part), "; %s %s: ratio %.2f (target <= %.2f)", name.c_str(),
                    Cell(medians[name], trials).c_str(),
                    static_cast<double>(medians[name]) / medians["random"], target);
      verdict += part;
    }
    verdicts.push_back(verdict + " (a run that never reached 95 % counts as " +
                       std::to_string(trials + 1) + ")");
  }
  std::printf("\n");
  for (const std::string& v : verdicts) std::printf("%s\n", v.c_str());
  std::filesystem::remove_all(dir);
  return failures == 0 ? 0 : 1;
}

}  // namespace
}  // namespace tunefarm::bench

int main() { return tunefarm::bench::Main(); }
