// ModelBasedSearch: a cost model trained on every result proposes what to measure next —
// simulated annealing over the space scored by the model and the model's best one-knob moves
// around the best measured configs, then an epsilon-greedy, diverse batch of both. Random until
// enough results arrive. Can be warmed with rows of other tasks of the same template (transfer),
// kept only while they rank this task's results well.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <random>
#include <utility>
#include <vector>

#include "tuner/cost_model.h"
#include "tuner/search/feature_extractor.h"
#include "tuner/search/search_history.h"
#include "tuner/search/simulated_annealing.h"
#include "tuner/search/transfer_rows.h"
#include "tuner/search/xgb_cost_model.h"
#include "tuner/search_strategy.h"

namespace tunefarm::tuner {

struct ModelBasedOptions {
  uint64_t seed = 0;
  // Own results before the model takes over; until then a batch holds only the random draws
  // still missing (so the first batch may be smaller than asked).
  int min_train_rows = 8;
  double epsilon = 0.05;      // fraction of each batch drawn at random (rounded)
  int min_knob_distance = 2;  // a batch's model picks differ pairwise in at least this many knobs
  // Local search: this fraction of a batch's model picks (rounded) are the best-scored unseen
  // one-knob neighbours of the `local_parents` best measured configs (knobs with more values
  // contribute `local_max_per_knob` of them). Annealing alone spreads its picks over the model's
  // optima; a model trained on a few dozen rows is least wrong next to what was measured.
  double local_fraction = 0.5;
  int local_parents = 3;
  int local_max_per_knob = 32;
  // A model-guided batch holds at most as many configs as there are own results (and at least
  // min_train_rows): the model is retrained after 8, 16 and 32 results rather than every 16.
  bool grow_batches = true;
  AnnealingOptions annealing = {};
  // With full (lowered) features, annealing scores knob features with a second model and this
  // many of its best candidates are re-ranked by the full-feature model.
  int rerank = 48;
  // Transfer: from this many own results on, the transferred rows are kept only while a model
  // trained on them alone ranks the own results with Spearman >= transfer_min_correlation, less
  // 1.645 of the Spearman's standard errors on that many rows (1 / sqrt(rows - 1): -0.32 at 8
  // rows, -0.12 at 16, +0.06 at 48), not significantly worse: the own results are
  // the ones the transferred model picked as best, among which a ranking is hardest, and 8 of
  // them rank a useful model below zero by chance (another device's records of one matmul: -0.5
  // to +0.2 at 8 rows, +0.4 to +0.7 at 48).
  int transfer_check_rows = 8;
  double transfer_min_correlation = 0.3;
  // From this many own results on, they must also not cross-validate worse (Spearman, two
  // folds) with the transferred rows than without, by more than the margin.
  int transfer_cv_rows = 24;
  double transfer_cv_margin = 0.05;
  XgbOptions xgb = {};
};

// Makes an untrained cost model; by default an XgbCostModel with ModelBasedOptions::xgb.
using CostModelFactory = std::function<std::unique_ptr<CostModel>()>;

struct ModelBasedStats {
  int trainings = 0;
  double last_batch_seconds = 0;    // the last model-guided NextBatch
  AnnealingStats annealing;         // of the last model-guided NextBatch
  double transfer_correlation = 0;  // the gate's last Spearman (0 before it judged)
  double transfer_cv_warm = 0;      // the gate's last cross-validated Spearman with transfer
  double transfer_cv_own = 0;       // ... and without
};

class ModelBasedSearch final : public SearchStrategy {
 public:
  // The extractor (and its space or task) must outlive the strategy.
  explicit ModelBasedSearch(const FeatureExtractor& features, ModelBasedOptions options = {},
                            CostModelFactory factory = nullptr);

  absl::StatusOr<std::vector<space::Config>> NextBatch(int n) override;
  absl::Status Update(const std::vector<space::Config>& configs,
                      const std::vector<MeasureResult>& results) override;

  // Rows of another task (RowsFromRecords); InvalidArgument when their lengths differ from this
  // search's features. Used from the next NextBatch on, even before any own result.
  absl::Status AddTransfer(TransferRows rows);
  bool transfer_active() const { return transfer_active_ && !transfer_.empty(); }

  // The model ranking candidates (nullptr while proposals are random): the full-feature model
  // when features are lowered (annealing's knob-feature model is internal).
  const CostModel* cost_model() const override { return rank_model_.get(); }
  const ModelBasedStats& stats() const { return stats_; }

 private:
  struct Rows {
    std::vector<std::vector<float>> features;
    std::vector<double> throughput;
    std::vector<unsigned> groups;
  };
  absl::Status Retrain();
  absl::Status JudgeTransfer();
  // Own rows (one group; without those at positions of parity `leave_out` when it is 0 or 1)
  // and, when `with_transfer`, each transferred source as its own group.
  Rows TrainingRows(bool knob_features, bool with_own, bool with_transfer,
                    int leave_out = -1) const;
  // Mean held-out Spearman over two folds of the own rows: (with transfer, own rows only).
  absl::StatusOr<std::pair<double, double>> CrossValidate() const;
  absl::StatusOr<std::unique_ptr<CostModel>> Train(const Rows& rows) const;
  absl::StatusOr<std::vector<space::Config>> ModelBatch(int n);
  // Sorts scored candidates best first; when features are lowered, keeps the best `keep` and
  // re-ranks them by the full-feature model.
  using Scored = std::vector<std::pair<space::Config, double>>;
  absl::Status Rerank(Scored& candidates, size_t keep) const;
  absl::StatusOr<Scored> LocalCandidates(const CostModel& knob_model, size_t keep);
  absl::StatusOr<std::vector<space::Config>> ChainStarts();

  const FeatureExtractor& features_;
  ModelBasedOptions options_;
  CostModelFactory factory_;
  SearchHistory history_;
  std::mt19937_64 rng_;
  // Parallel to history_.measured().
  std::vector<std::vector<float>> own_features_;
  std::vector<std::vector<float>> own_knob_features_;
  std::vector<TransferRows> transfer_;
  bool transfer_active_ = true;
  std::unique_ptr<CostModel> transfer_model_;  // trained on transferred rows alone, for the gate
  std::unique_ptr<CostModel> rank_model_;
  std::unique_ptr<CostModel> knob_model_;  // annealing's model; rank_model_ when knob-only
  bool dirty_ = false;
  ModelBasedStats stats_;
};

}  // namespace tunefarm::tuner
