// ModelBasedSearch: a cost model trained on every result proposes what to measure next —
// simulated annealing over the space scored by the model, then an epsilon-greedy, diverse batch
// of the best candidates. Random until enough results arrive. Can be warmed with rows of other
// tasks of the same template (transfer), kept only while they rank this task's results well.
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
  AnnealingOptions annealing = {};
  // With full (lowered) features, annealing scores knob features with a second model and this
  // many of its best candidates are re-ranked by the full-feature model.
  int rerank = 48;
  // Transfer: from this many own results on, the transferred rows are kept only while a model
  // trained on them alone ranks the own results with Spearman >= transfer_min_correlation.
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
