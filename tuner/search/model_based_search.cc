#include "tuner/search/model_based_search.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <unordered_set>
#include <utility>

#include "absl/strings/str_cat.h"
#include "compiler/space/config_sampler.h"
#include "spdlog/spdlog.h"
#include "tuner/search/knob_features.h"
#include "tuner/search/one_knob_neighbors.h"
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
  // Dropped only when significantly below the bar (one-sided 95 %: 1.645 standard errors).
  const double standard_error =
      1.0 / std::sqrt(std::max(static_cast<double>(truth.size()), 2.0) - 1.0);
  bool keep =
      stats_.transfer_correlation >= options_.transfer_min_correlation - 1.645 * standard_error;
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

absl::Status ModelBasedSearch::Rerank(Scored& candidates, size_t keep) const {
  std::stable_sort(candidates.begin(), candidates.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  if (features_.knob_only() || candidates.empty()) return absl::OkStatus();
  if (candidates.size() > keep) {
    candidates.erase(candidates.begin() + static_cast<long>(keep), candidates.end());
  }
  // Lowering each candidate for its full features is the expensive part, hence only the best.
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
  return absl::OkStatus();
}

absl::StatusOr<ModelBasedSearch::Scored> ModelBasedSearch::LocalCandidates(
    const CostModel& knob_model, size_t keep) {
  const space::ConfigSpace& space = features_.space();
  std::vector<space::Config> neighbors;
  std::unordered_set<int64_t> taken;
  for (size_t i : history_.TopMeasured(static_cast<size_t>(std::max(options_.local_parents, 0)))) {
    const MeasuredConfig& parent = history_.measured()[i];
    if (parent.throughput <= 0) continue;  // failures are no place to search around
    absl::StatusOr<space::Config> c = space.Get(parent.index);
    if (!c.ok()) return c.status();
    absl::StatusOr<std::vector<space::Config>> around =
        OneKnobNeighbors(space, *c, options_.local_max_per_knob, rng_);
    if (!around.ok()) return around.status();
    for (space::Config& n : *around) {
      if (!history_.Seen(n.index()) && taken.insert(n.index()).second) {
        neighbors.push_back(std::move(n));
      }
    }
  }
  Scored out;
  if (neighbors.empty()) return out;
  std::vector<std::vector<float>> rows;
  rows.reserve(neighbors.size());
  for (const space::Config& c : neighbors) rows.push_back(KnobFeatureVector(c));
  absl::StatusOr<std::vector<double>> scores = knob_model.Predict(rows);
  if (!scores.ok()) return scores.status();
  for (size_t i = 0; i < neighbors.size(); ++i) out.emplace_back(neighbors[i], (*scores)[i]);
  if (absl::Status s = Rerank(out, keep); !s.ok()) return s;
  return out;
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
  absl::StatusOr<Scored> global = Anneal(
      features_.space(), *starts, score, [&](int64_t i) { return history_.Seen(i); }, rng_,
      annealing, &stats_.annealing);
  if (!global.ok()) return global.status();
  const size_t keep = static_cast<size_t>(std::max(options_.rerank, 2 * n));
  if (absl::Status s = Rerank(*global, keep); !s.ok()) return s;
  const int random_count = static_cast<int>(std::floor(options_.epsilon * n + 0.5));
  const int model_count = n - random_count;
  const int local_quota = static_cast<int>(
      std::floor(std::clamp(options_.local_fraction, 0.0, 1.0) * model_count + 0.5));
  Scored local;
  if (local_quota > 0) {
    absl::StatusOr<Scored> l = LocalCandidates(knob_model, keep);
    if (!l.ok()) return l.status();
    local = *std::move(l);
  }
  std::vector<space::Config> out;
  // Takes the next unseen candidate of `list` that differs from every pick in `min_distance`
  // knobs or more; false when the list has none left.
  auto take = [&](const Scored& list, size_t& cursor, int min_distance) {
    while (cursor < list.size()) {
      const space::Config& c = list[cursor++].first;
      if (history_.Seen(c.index())) continue;
      bool far = std::all_of(out.begin(), out.end(), [&](const space::Config& o) {
        return KnobDistance(o.knob_indices(), c.knob_indices()) >= min_distance;
      });
      if (!far) continue;
      history_.MarkSeen(c.index());
      out.push_back(c);
      return true;
    }
    return false;
  };
  // Global and local picks alternate, so the best of each is measured early; diverse picks
  // first, and if that leaves the batch short, any unseen candidate in score order.
  int local_taken = 0;
  for (int min_distance : {options_.min_knob_distance, 1}) {
    size_t g = 0, l = 0;
    bool more = true;
    while (static_cast<int>(out.size()) < model_count && more) {
      more = false;
      if (static_cast<int>(out.size()) - local_taken < model_count - local_quota ||
          l >= local.size()) {
        more = take(*global, g, min_distance) || more;
      }
      if (static_cast<int>(out.size()) < model_count &&
          (local_taken < local_quota || g >= global->size()) && take(local, l, min_distance)) {
        ++local_taken;
        more = true;
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
  const int own = static_cast<int>(own_features_.size());
  if (!rank_model_) {
    // Only as many random draws as the first model needs: every further random trial is one
    // the model could have chosen (a first batch of 16 where 8 train the model cost 8 trials).
    const int want = own < options_.min_train_rows ? std::min(n, options_.min_train_rows - own) : n;
    return DrawUnseen(history_, rng_, want);
  }
  if (options_.grow_batches) n = std::min(n, std::max(options_.min_train_rows, own));
  auto start = std::chrono::steady_clock::now();
  absl::StatusOr<std::vector<space::Config>> batch = ModelBatch(n);
  stats_.last_batch_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return batch;
}

}  // namespace tunefarm::tuner
