// Tune(): the loop every tuning job runs, locally or in the tracker. Results are written to the
// store batch by batch before the strategy learns from them, so a killed tuner loses at most the
// batch in flight and a resumed one starts where the records end.
#include "tuner/tuning_loop.h"

#include <chrono>
#include <set>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/space/config_json.h"
#include "spdlog/spdlog.h"
#include "tuner/version.h"

namespace tunefarm::tuner {
namespace {

bool StopRequested(const TuneOptions& options) {
  return options.stop != nullptr && options.stop->load(std::memory_order_relaxed);
}

// Earlier records of the task back as (config, result) pairs; records whose config no longer
// parses in this space (the template changed) are skipped with a warning.
struct History {
  std::vector<space::Config> configs;
  std::vector<MeasureResult> results;
};

History LoadHistory(const Task& task, const std::vector<Record>& records) {
  History h;
  int skipped = 0;
  for (const Record& r : records) {
    absl::StatusOr<space::Config> c = space::ConfigFromJson(task.space(), r.config_json);
    if (!c.ok()) {
      ++skipped;
      continue;
    }
    MeasureResult m;
    m.error_kind = r.error_kind;
    m.error_message = r.error_message;
    m.repeat_seconds = r.repeat_seconds;
    m.build_seconds = r.build_seconds;
    m.measured_by = r.measured_by;
    h.configs.push_back(*std::move(c));
    h.results.push_back(std::move(m));
  }
  if (skipped > 0) {
    spdlog::warn("tune {}: {} earlier records do not fit this config space; ignored", task.key(),
                 skipped);
  }
  return h;
}

class Loop {
 public:
  Loop(const Task& task, SearchStrategy& strategy, Builder& builder, Runner& runner,
       RecordStore* store, const TuneOptions& options)
      : task_(task),
        strategy_(strategy),
        builder_(builder),
        runner_(runner),
        store_(store),
        options_(options),
        device_key_(runner.device_key()),
        start_(std::chrono::steady_clock::now()) {
    summary_.progress.trials_total = options.trials;
  }

  absl::StatusOr<TuneSummary> Run() {
    if (absl::Status s = Resume(); !s.ok()) return s;
    if (options_.measure_default_first && options_.trials > 0 && !StopRequested(options_)) {
      absl::StatusOr<space::Config> def = task_.DefaultConfig();
      if (!def.ok()) {
        spdlog::warn("tune {}: no default config ({})", task_.key(),
                     std::string(def.status().message()));
      } else if (!measured_.contains(def->index())) {
        if (absl::Status s = MeasureBatch({*def}); !s.ok()) return s;
      }
    }
    while (summary_.progress.trials_done < options_.trials) {
      if (StopRequested(options_)) {
        summary_.interrupted = true;
        break;
      }
      if (options_.early_stopping > 0 && since_best_ >= options_.early_stopping) {
        summary_.early_stopped = true;
        break;
      }
      int n = std::min(options_.batch_size, options_.trials - summary_.progress.trials_done);
      absl::StatusOr<std::vector<space::Config>> proposed = strategy_.NextBatch(n);
      if (!proposed.ok()) return proposed.status();
      std::vector<space::Config> batch;
      for (space::Config& c : *proposed) {
        if (measured_.insert(c.index()).second) batch.push_back(std::move(c));
      }
      if (batch.empty()) {
        summary_.exhausted = true;
        break;
      }
      if (absl::Status s = MeasureBatch(batch); !s.ok()) return s;
    }
    if (StopRequested(options_)) summary_.interrupted = true;
    SaveModel();
    return Finish();
  }

 private:
  absl::Status Resume() {
    if (store_ == nullptr || !options_.resume) return absl::OkStatus();
    absl::StatusOr<std::vector<Record>> earlier =
        store_->TaskRecords(task_.key(), task_.target(), device_key_);
    if (!earlier.ok()) return earlier.status();
    History h = LoadHistory(task_, *earlier);
    if (h.configs.empty()) return absl::OkStatus();
    for (size_t i = 0; i < h.configs.size(); ++i) {
      measured_.insert(h.configs[i].index());
      NoteBest(h.configs[i], h.results[i]);
    }
    since_best_ = 0;
    spdlog::info("tune {}: resuming after {} earlier records", task_.key(), h.configs.size());
    return strategy_.Update(h.configs, h.results);
  }

  absl::Status MeasureBatch(const std::vector<space::Config>& batch) {
    std::vector<MeasureInput> inputs;
    for (const space::Config& c : batch) {
      measured_.insert(c.index());
      inputs.push_back(MeasureInput{&task_, c});
    }
    std::vector<BuildResult> builds = builder_.Build(inputs);
    std::vector<MeasureResult> measured =
        runner_.Run(inputs, builds, summary_.progress.best_seconds);
    // Candidates a stopped run never measured are dropped: neither records nor training data.
    std::vector<space::Config> configs;
    std::vector<MeasureResult> results;
    for (size_t i = 0; i < batch.size() && i < measured.size(); ++i) {
      if (measured[i].cancelled) continue;
      configs.push_back(batch[i]);
      results.push_back(std::move(measured[i]));
    }
    std::vector<Record> records;
    std::vector<Record> to_store;
    for (size_t i = 0; i < configs.size(); ++i) {
      records.push_back(
          MakeRecord(task_, configs[i], results[i], device_key_, options_.job_id, *options_.clock));
      if (!results[i].recorded) to_store.push_back(records.back());
    }
    // Stored before anything else happens: a crash from here on loses nothing measured.
    if (store_ != nullptr && !to_store.empty()) {
      if (absl::Status s = store_->InsertBatch(to_store); !s.ok()) {
        return absl::Status(
            s.code(), absl::StrCat("tune ", task_.key(), ": cannot store results: ", s.message()));
      }
    }
    TuneProgress& p = summary_.progress;
    for (size_t i = 0; i < configs.size(); ++i) {
      ++p.trials_done;
      ++since_best_;
      if (results[i].error_kind != ErrorKind::kOk) {
        ++p.errors;
        ++p.error_counts[results[i].error_kind];
      }
      if (NoteBest(configs[i], results[i])) {
        since_best_ = 0;
        best_record_ = records[i];
      }
    }
    if (!configs.empty()) {
      if (absl::Status s = strategy_.Update(configs, results); !s.ok()) return s;
    }
    p.elapsed_seconds = Elapsed();
    if (options_.on_progress) options_.on_progress(p);
    return absl::OkStatus();
  }

  // Returns whether `result` is a new best.
  bool NoteBest(const space::Config& config, const MeasureResult& result) {
    if (result.error_kind != ErrorKind::kOk) return false;
    std::optional<double> median = MedianSeconds(result.repeat_seconds);
    if (!median || *median <= 0) return false;
    TuneProgress& p = summary_.progress;
    if (p.best_seconds > 0 && *median >= p.best_seconds) return false;
    p.best_seconds = *median;
    p.best_gflops = task_.flops() / *median / 1e9;
    p.best_config_json = space::ConfigToJson(config);
    return true;
  }

  void SaveModel() {
    const CostModel* model = strategy_.cost_model();
    if (store_ == nullptr || model == nullptr || !model->trained()) return;
    absl::StatusOr<std::string> bytes = model->Save();
    std::string scope =
        options_.model_scope.empty() ? ModelScope(task_, device_key_) : options_.model_scope;
    absl::Status s = bytes.ok()
                         ? store_->PutModel(scope, *bytes, static_cast<int64_t>(measured_.size()))
                         : bytes.status();
    if (!s.ok())
      spdlog::warn("tune {}: cost model not saved: {}", task_.key(), std::string(s.message()));
  }

  absl::StatusOr<TuneSummary> Finish() {
    summary_.progress.elapsed_seconds = Elapsed();
    if (store_ != nullptr) {
      absl::StatusOr<std::optional<Record>> best =
          store_->Best({task_.key(), task_.target(), device_key_, std::nullopt});
      if (!best.ok()) return best.status();
      summary_.best = *best;
    } else {
      summary_.best = best_record_;
    }
    return summary_;
  }

  double Elapsed() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }

  const Task& task_;
  SearchStrategy& strategy_;
  Builder& builder_;
  Runner& runner_;
  RecordStore* store_;
  const TuneOptions& options_;
  std::string device_key_;
  std::chrono::steady_clock::time_point start_;
  std::set<int64_t> measured_;
  int since_best_ = 0;
  std::optional<Record> best_record_;
  TuneSummary summary_;
};

}  // namespace

std::string ModelScope(const Task& task, const std::string& device_key) {
  return absl::StrCat(task.workload().template_name, "|", task.target(), "|", device_key);
}

Record MakeRecord(const Task& task, const space::Config& config, const MeasureResult& result,
                  const std::string& device_key, const std::string& job_id,
                  const runtime::Clock& clock) {
  Record r;
  r.workload_key = task.key();
  r.target = task.target();
  r.device_key = device_key;
  r.config_json = space::ConfigToJson(config);
  r.repeat_seconds = result.repeat_seconds;
  r.error_kind = result.error_kind;
  r.error_message = result.error_message;
  r.build_seconds = result.build_seconds;
  r.measured_by = result.measured_by;
  r.timestamp_ms = clock.NowMs();
  r.tunefarm_version = std::string(kTunefarmVersion);
  r.job_id = job_id;
  return r;
}

absl::StatusOr<TuneSummary> Tune(const Task& task, SearchStrategy& strategy, Builder& builder,
                                 Runner& runner, RecordStore* store, const TuneOptions& options) {
  if (options.trials < 0 || options.batch_size <= 0 || options.early_stopping < 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "tune ", task.key(), ": trials (", options.trials, ") and early_stopping (",
        options.early_stopping, ") must be >= 0 and batch_size (", options.batch_size, ") > 0"));
  }
  Loop loop(task, strategy, builder, runner, store, options);
  return loop.Run();
}

}  // namespace tunefarm::tuner
