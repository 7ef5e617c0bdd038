#include "tuner/search/model_based_search.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <utility>

#include "absl/strings/str_cat.h"
#include "compiler/space/config_sampler.h"
#include "spdlog/spdlog.h"
#include "tuner/search/knob_features.h"
#include "tuner/search/rank_metrics.h"

namespace tunefarm::tuner {

ModelBasedSearch::ModelBasedSearch(const FeatureExtractor& features, ModelBasedOptions options,
                                   CostModelFactory factory)
    : features_(features),
      options_(std::move(options)),
      factory_(std::move(factory)),
      history_(features.space()),
      rng_(options_.seed) {
  if (!factory_) {
    XgbOptions xgb = options_.xgb;
    factory_ = [xgb] { return std::make_unique<XgbCostModel>(xgb); };
  }
}

absl::Status ModelBasedSearch::Update(const std::vector<space::Config>& configs,
                                      const std::vector<MeasureResult>& results) {
  if (absl::Status s = history_.Add(configs, results); !s.ok()) return s;
  for (const space::Config& c : configs) {
    own_features_.push_back(features_.Get(c).values);
    own_knob_features_.push_back(KnobFeatureVector(c));
  }
  dirty_ = dirty_ || !configs.empty();
  return absl::OkStatus();
}

absl::Status ModelBasedSearch::AddTransfer(TransferRows rows) {
  const size_t knob_len = static_cast<size_t>(KnobFeatureLength(features_.space()));
  if (rows.features.size() != rows.throughput.size() ||
      rows.knob_features.size() != rows.throughput.size()) {
    return absl::InvalidArgumentError("transfer: row counts differ");
  }
  for (size_t i = 0; i < rows.features.size(); ++i) {
    if (rows.features[i].size() != static_cast<size_t>(features_.length()) ||
        rows.knob_features[i].size() != knob_len) {
      return absl::InvalidArgumentError(absl::StrCat(
          "transfer: rows of ", rows.source, " have ", rows.features[i].size(), "+",
          rows.knob_features[i].size(), " features, this search uses ", features_.length(), "+",
          knob_len, " (another template, or other feature options)"));
    }
  }
  if (rows.features.empty()) return absl::OkStatus();
  transfer_.push_back(std::move(rows));
  transfer_model_.reset();
  dirty_ = true;
  return absl::OkStatus();
}

ModelBasedSearch::Rows ModelBasedSearch::TrainingRows(bool knob_features, bool with_own,
                                                      bool with_transfer, int leave_out) const {
  Rows rows;
  auto add = [&](const std::vector<std::vector<float>>& f, const std::vector<double>& t) {
    rows.features.insert(rows.features.end(), f.begin(), f.end());
    rows.throughput.insert(rows.throughput.end(), t.begin(), t.end());
    rows.groups.push_back(static_cast<unsigned>(f.size()));
  };
  if (with_own && !own_features_.empty()) {
    const auto& own = knob_features ? own_knob_features_ : own_features_;
    std::vector<std::vector<float>> f;
    std::vector<double> t;
    for (size_t i = 0; i < own.size(); ++i) {
      if (leave_out >= 0 && static_cast<int>(i % 2) == leave_out) continue;
      f.push_back(own[i]);
      t.push_back(history_.measured()[i].throughput);
    }
    if (!f.empty()) add(f, t);
  }
  if (with_transfer) {
    for (const TransferRows& r : transfer_) {
      add(knob_features ? r.knob_features : r.features, r.throughput);
    }
  }
  return rows;
}

absl::StatusOr<std::unique_ptr<CostModel>> ModelBasedSearch::Train(const Rows& rows) const {
  std::unique_ptr<CostModel> model = factory_();
  if (auto* xgb = dynamic_cast<XgbCostModel*>(model.get())) {
    if (absl::Status s = xgb->FitGroups(rows.features, rows.throughput, rows.groups); !s.ok()) {
      return s;
    }
    return model;
  }
  // Another model ranks all rows at once: put the groups on one scale (relative to their best).
  std::vector<double> t = rows.throughput;
  size_t begin = 0;
  for (unsigned g : rows.groups) {
    double best = 0;
    for (size_t i = begin; i < begin + g; ++i) best = std::max(best, t[i]);
    for (size_t i = begin; i < begin + g; ++i) t[i] = best > 0 ? t[i] / best : 0;
    begin += g;
  }
  if (absl::Status s = model->Fit(rows.features, t); !s.ok()) return s;
  return model;
}

absl::StatusOr<std::pair<double, double>> ModelBasedSearch::CrossValidate() const {
  double warm = 0, own = 0;
  for (int fold = 0; fold < 2; ++fold) {
    std::vector<std::vector<float>> test;
    std::vector<double> truth;
    for (size_t i = static_cast<size_t>(fold); i < own_features_.size(); i += 2) {
      test.push_back(own_features_[i]);
      truth.push_back(history_.measured()[i].throughput);
    }
    for (bool with_transfer : {true, false}) {
      absl::StatusOr<std::unique_ptr<CostModel>> m =
          Train(TrainingRows(false, true, with_transfer, fold));
      if (!m.ok()) return m.status();
      absl::StatusOr<std::vector<double>> p = (*m)->Predict(test);
      if (!p.ok()) return p.status();
      (with_transfer ? warm : own) += 0.5 * SpearmanCorrelation(*p, truth);
    }
  }
  return std::make_pair(warm, own);
}

absl::Status ModelBasedSearch::JudgeTransfer() {
  if (!transfer_model_) {
    absl::StatusOr<std::unique_ptr<CostModel>> m = Train(TrainingRows(false, false, true));
    if (!m.ok()) return m.status();
    transfer_model_ = *std::move(m);
  }
  absl::StatusOr<std::vector<double>> predicted = transfer_model_->Predict(own_features_);
  if (!predicted.ok()) return predicted.status();
  std::vector<double> truth;
  for (const MeasuredConfig& m : history_.measured()) truth.push_back(m.throughput);
  // All own results equal (say, all failed) say nothing about the transferred rows.
  if (std::all_of(truth.begin(), truth.end(), [&](double t) { return t == truth[0]; })) {
    return absl::OkStatus();
  }
  stats_.transfer_correlation = SpearmanCorrelation(*predicted, truth);
  bool keep = stats_.transfer_correlation >= options_.transfer_min_correlation;
  // With enough own rows, the transferred ones must also not make the model worse than one
  // trained on own rows alone (two-fold cross-validation on the own rows).
  if (keep && static_cast<int>(truth.size()) >= options_.transfer_cv_rows) {
    absl::StatusOr<std::pair<double, double>> cv = CrossValidate();
    if (!cv.ok()) return cv.status();
    stats_.transfer_cv_warm = cv->first;
    stats_.transfer_cv_own = cv->second;
    keep = cv->first >= cv->second - options_.transfer_cv_margin;
  }
  if (keep != transfer_active_) {
    spdlog::info(
        "model-based search: {} transferred rows after {} own results (alone they rank them with "
        "Spearman {:.2f}; cross-validated {:.2f} with them, {:.2f} without)",
        keep ? "using again" : "leaving out", truth.size(), stats_.transfer_correlation,
        stats_.transfer_cv_warm, stats_.transfer_cv_own);
  }
  transfer_active_ = keep;
  return absl::OkStatus();
}

absl::Status ModelBasedSearch::Retrain() {
  dirty_ = false;
  const int own = static_cast<int>(own_features_.size());
  if (!transfer_.empty() && own >= options_.transfer_check_rows) {
    if (absl::Status s = JudgeTransfer(); !s.ok()) return s;
  }
  const bool with_transfer = transfer_active();
  if (own < options_.min_train_rows && !with_transfer) {
    rank_model_.reset();
    knob_model_.reset();
    return absl::OkStatus();
  }
  absl::StatusOr<std::unique_ptr<CostModel>> rank = Train(TrainingRows(false, true, with_transfer));
  if (!rank.ok()) return rank.status();
  rank_model_ = *std::move(rank);
  if (!features_.knob_only()) {
    absl::StatusOr<std::unique_ptr<CostModel>> knob =
        Train(TrainingRows(true, true, with_transfer));
    if (!knob.ok()) return knob.status();
    knob_model_ = *std::move(knob);
  }
  ++stats_.trainings;
  return absl::OkStatus();
}

absl::StatusOr<std::vector<space::Config>> ModelBasedSearch::ChainStarts() {
  const space::ConfigSpace& space = features_.space();
  const size_t chains = static_cast<size_t>(std::max(options_.annealing.chains, 1));
  std::vector<space::Config> starts;
  // Half the chains start at the best measured configs, the rest anywhere.
  for (size_t i : history_.TopMeasured(chains / 2)) {
    absl::StatusOr<space::Config> c = space.Get(history_.measured()[i].index);
    if (!c.ok()) return c.status();
    if (space.IsValid(*c)) starts.push_back(*std::move(c));
  }
  while (starts.size() < chains) {
    absl::StatusOr<space::Config> c = space::SampleValidConfig(space, rng_);
    if (!c.ok()) break;  // a space that is nearly all invalid: fewer chains
    starts.push_back(*std::move(c));
  }
  return starts;
}

absl::StatusOr<std::vector<space::Config>> ModelBasedSearch::ModelBatch(int n) {
  const CostModel& knob_model = knob_model_ ? *knob_model_ : *rank_model_;
  BatchScorer score = [&](const std::vector<space::Config>& configs) {
    std::vector<std::vector<float>> rows;
    rows.reserve(configs.size());
    for (const space::Config& c : configs) rows.push_back(KnobFeatureVector(c));
    return knob_model.Predict(rows);
  };
  absl::StatusOr<std::vector<space::Config>> starts = ChainStarts();
  if (!starts.ok()) return starts.status();
  AnnealingOptions annealing = options_.annealing;
  annealing.keep = std::max(annealing.keep, 4 * n);
  absl::StatusOr<std::vector<std::pair<space::Config, double>>> found = Anneal(
      features_.space(), *starts, score, [&](int64_t i) { return history_.Seen(i); }, rng_,
      annealing, &stats_.annealing);
  if (!found.ok()) return found.status();
  std::vector<std::pair<space::Config, double>>& candidates = *found;
  if (!features_.knob_only() && !candidates.empty()) {
    // Re-rank the best by the full-feature model (lowering each: the expensive part).
    const size_t keep =
        std::min(candidates.size(), static_cast<size_t>(std::max(options_.rerank, 2 * n)));
    candidates.erase(candidates.begin() + static_cast<long>(keep), candidates.end());
    std::vector<std::vector<float>> rows;
    std::vector<bool> valid;
    for (const auto& [c, s] : candidates) {
      FeatureRow row = features_.Get(c);
      valid.push_back(row.valid);
      rows.push_back(std::move(row.values));
    }
    absl::StatusOr<std::vector<double>> full = rank_model_->Predict(rows);
    if (!full.ok()) return full.status();
    for (size_t i = 0; i < candidates.size(); ++i) {
      candidates[i].second = valid[i] ? (*full)[i] : -std::numeric_limits<double>::infinity();
    }
    std::stable_sort(candidates.begin(), candidates.end(),
                     [](const auto& a, const auto& b) { return a.second > b.second; });
  }
  const int random_count = static_cast<int>(std::floor(options_.epsilon * n + 0.5));
  const int model_count = n - random_count;
  std::vector<space::Config> out;
  // Diverse picks first; if that leaves the batch short, any unseen candidate in score order.
  for (int min_distance : {options_.min_knob_distance, 1}) {
    for (const auto& candidate : candidates) {
      // Not a structured binding: lambdas may not capture those before C++20's clang 16.
      const space::Config& c = candidate.first;
      if (static_cast<int>(out.size()) >= model_count) break;
      bool far = std::all_of(out.begin(), out.end(), [&](const space::Config& o) {
        return KnobDistance(o.knob_indices(), c.knob_indices()) >= min_distance;
      });
      if (far && !history_.Seen(c.index())) {
        history_.MarkSeen(c.index());
        out.push_back(c);
      }
    }
  }
  absl::StatusOr<std::vector<space::Config>> fill =
      DrawUnseen(history_, rng_, n - static_cast<int>(out.size()));
  if (!fill.ok()) return fill.status();
  for (space::Config& c : *fill) out.push_back(std::move(c));
  return out;
}

absl::StatusOr<std::vector<space::Config>> ModelBasedSearch::NextBatch(int n) {
  if (n <= 0) return std::vector<space::Config>();
  if (dirty_) {
    if (absl::Status s = Retrain(); !s.ok()) return s;
  }
  if (!rank_model_) {
    // Only as many random draws as the first model needs: every further random trial is one
    // the model could have chosen (a first batch of 16 where 8 train the model cost 8 trials).
    const int own = static_cast<int>(own_features_.size());
    const int want = own < options_.min_train_rows ? std::min(n, options_.min_train_rows - own) : n;
    return DrawUnseen(history_, rng_, want);
  }
  auto start = std::chrono::steady_clock::now();
  absl::StatusOr<std::vector<space::Config>> batch = ModelBatch(n);
  stats_.last_batch_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return batch;
}

}  // namespace tunefarm::tuner
