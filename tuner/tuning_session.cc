// TuningSession: the bookkeeping of one task's tuning (what is seen, in flight, recorded, best)
// shared by the synchronous loop and the tracker's pipelined jobs. Results are stored before the
// strategy learns from them, so a killed tuner loses nothing it was told of.
#include "tuner/tuning_session.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "compiler/space/config_json.h"
#include "spdlog/spdlog.h"

namespace tunefarm::tuner {
namespace {

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
    h.configs.push_back(*std::move(c));
    h.results.push_back(ResultOfRecord(r));
  }
  if (skipped > 0) {
    spdlog::warn("tune {}: {} earlier records do not fit this config space; ignored", task.key(),
                 skipped);
  }
  return h;
}

}  // namespace

TuningSession::TuningSession(const Task& task, SearchStrategy& strategy, RecordStore* store,
                             std::string device_key, const TuneOptions& options)
    : task_(task),
      strategy_(strategy),
      store_(store),
      device_key_(std::move(device_key)),
      options_(options),
      start_(std::chrono::steady_clock::now()) {
  summary_.progress.trials_total = options.trials;
}

absl::Status TuningSession::Start() {
  if (store_ != nullptr && options_.resume) {
    absl::StatusOr<std::vector<Record>> earlier =
        store_->TaskRecords(task_.key(), task_.target().str(), device_key_, options_.cache_flush);
    if (!earlier.ok()) return earlier.status();
    History h = LoadHistory(task_, *earlier);
    if (!h.configs.empty()) {
      for (size_t i = 0; i < h.configs.size(); ++i) {
        seen_.insert(h.configs[i].index());
        NoteBest(h.configs[i], h.results[i]);
      }
      spdlog::info("tune {}: resuming after {} earlier records", task_.key(), h.configs.size());
      if (absl::Status s = strategy_.Update(h.configs, h.results); !s.ok()) return s;
    }
  }
  if (options_.measure_default_first && options_.trials > 0 && !StopRequested()) {
    absl::StatusOr<space::Config> def = task_.DefaultConfig();
    if (!def.ok()) {
      spdlog::warn("tune {}: no default config ({})", task_.key(),
                   std::string(def.status().message()));
    } else if (!seen_.contains(def->index())) {
      default_config_ = *std::move(def);
    }
  }
  return absl::OkStatus();
}

bool TuningSession::StopRequested() const {
  return options_.stop != nullptr && options_.stop->load(std::memory_order_relaxed);
}

absl::StatusOr<std::vector<space::Config>> TuningSession::Propose(int max) {
  std::vector<space::Config> out;
  const TuneProgress& p = summary_.progress;
  const int budget = options_.trials - p.trials_done - in_flight();
  if (max <= 0 || budget <= 0 || StopRequested()) return out;
  if (default_config_) {
    // Alone, so that a tuned result is never worse than the library's default.
    seen_.insert(default_config_->index());
    in_flight_.insert(default_config_->index());
    out.push_back(*std::move(default_config_));
    default_config_.reset();
    return out;
  }
  if (options_.early_stopping > 0 && since_best_ >= options_.early_stopping) return out;
  if (strategy_empty_) return out;
  absl::StatusOr<std::vector<space::Config>> proposed = strategy_.NextBatch(std::min(max, budget));
  if (!proposed.ok()) return proposed.status();
  for (space::Config& c : *proposed) {
    if (!seen_.insert(c.index()).second) continue;
    in_flight_.insert(c.index());
    out.push_back(std::move(c));
  }
  // Strategies never propose a config twice, so nothing new now means nothing new ever.
  if (out.empty()) strategy_empty_ = true;
  return out;
}

absl::Status TuningSession::Complete(const std::vector<space::Config>& configs,
                                     std::vector<MeasureResult> results) {
  std::vector<space::Config> taken;
  std::vector<MeasureResult> measured;
  for (size_t i = 0; i < configs.size() && i < results.size(); ++i) {
    if (in_flight_.erase(configs[i].index()) == 0) {
      spdlog::warn("tune {}: a result for a config not in flight ({}); ignored", task_.key(),
                   configs[i].index());
      continue;
    }
    // A candidate a stopped run never measured: neither a record nor training data.
    if (results[i].cancelled) continue;
    taken.push_back(configs[i]);
    measured.push_back(std::move(results[i]));
  }
  // The one place records are written, for local runs and the farm's jobs alike.
  std::vector<Record> records;
  for (size_t i = 0; i < taken.size(); ++i) {
    records.push_back(MakeRecord(task_, taken[i], measured[i], device_key_, options_));
  }
  // Stored before anything else happens: a crash from here on loses nothing measured.
  if (store_ != nullptr && !records.empty()) {
    if (absl::Status s = store_->InsertBatch(records); !s.ok()) {
      return absl::Status(
          s.code(), absl::StrCat("tune ", task_.key(), ": cannot store results: ", s.message()));
    }
  }
  TuneProgress& p = summary_.progress;
  for (size_t i = 0; i < taken.size(); ++i) {
    ++p.trials_done;
    ++since_best_;
    if (measured[i].error_kind != ErrorKind::kOk) {
      ++p.errors;
      ++p.error_counts[measured[i].error_kind];
    }
    if (NoteBest(taken[i], measured[i])) {
      since_best_ = 0;
      best_record_ = records[i];
    }
    to_learn_.push_back(std::move(taken[i]));
    to_learn_results_.push_back(std::move(measured[i]));
  }
  if (!to_learn_.empty() &&
      (static_cast<int>(to_learn_.size()) >= options_.batch_size || in_flight_.empty())) {
    if (absl::Status s = Learn(); !s.ok()) return s;
  }
  p.elapsed_seconds = Elapsed();
  if (options_.on_progress) options_.on_progress(p);
  return absl::OkStatus();
}

bool TuningSession::done() const {
  if (!in_flight_.empty()) return false;
  const TuneProgress& p = summary_.progress;
  if (p.trials_done >= options_.trials || StopRequested()) return true;
  if (default_config_) return false;
  return strategy_empty_ || (options_.early_stopping > 0 && since_best_ >= options_.early_stopping);
}

absl::Status TuningSession::Learn() {
  absl::Status s = strategy_.Update(to_learn_, to_learn_results_);
  to_learn_.clear();
  to_learn_results_.clear();
  return s;
}

bool TuningSession::NoteBest(const space::Config& config, const MeasureResult& result) {
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

void TuningSession::SaveModel() {
  const CostModel* model = strategy_.cost_model();
  if (store_ == nullptr || model == nullptr || !model->trained()) return;
  absl::StatusOr<std::string> bytes = model->Save();
  std::string scope = options_.model_scope.empty()
                          ? ModelScope(task_, device_key_, options_.cache_flush)
                          : options_.model_scope;
  absl::Status s = bytes.ok() ? store_->PutModel(scope, *bytes, static_cast<int64_t>(seen_.size()))
                              : bytes.status();
  if (!s.ok()) {
    spdlog::warn("tune {}: cost model not saved: {}", task_.key(), std::string(s.message()));
  }
}

absl::StatusOr<TuneSummary> TuningSession::Finish() {
  if (!to_learn_.empty()) {
    if (absl::Status s = Learn(); !s.ok()) return s;
  }
  SaveModel();
  TuneProgress& p = summary_.progress;
  p.elapsed_seconds = Elapsed();
  summary_.interrupted = StopRequested();
  if (!summary_.interrupted && p.trials_done < options_.trials) {
    if (options_.early_stopping > 0 && since_best_ >= options_.early_stopping) {
      summary_.early_stopped = true;
    } else if (strategy_empty_) {
      summary_.exhausted = true;
    }
  }
  if (store_ != nullptr) {
    absl::StatusOr<std::optional<Record>> best = store_->Best(
        {task_.key(), task_.target().str(), device_key_, std::nullopt, options_.cache_flush});
    if (!best.ok()) return best.status();
    summary_.best = *best;
  } else {
    summary_.best = best_record_;
  }
  return summary_;
}

double TuningSession::Elapsed() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

}  // namespace tunefarm::tuner
