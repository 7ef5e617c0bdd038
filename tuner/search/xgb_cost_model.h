// XgbCostModel: the CostModel of the tuner, gradient-boosted trees through XGBoost's C API, trained
// to rank candidates (rank:pairwise) or to predict normalized throughput (reg:squarederror).
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "tuner/cost_model.h"

namespace tunefarm::tuner {

enum class XgbObjective { kRankPairwise, kRegression };

struct XgbOptions {
  XgbObjective objective = XgbObjective::kRankPairwise;
  int rounds = 60;
  int max_depth = 6;
  double eta = 0.3;
  double min_child_weight = 1;
  double subsample = 1;
  // OpenMP threads, set explicitly: small training sets gain little from more, and spinning
  // OpenMP workers on a busy 2-core box cost more than they give (measured: seconds per fit).
  int nthread = 1;
  uint64_t seed = 0;
  std::string tree_method = "hist";
  std::string save_format = "ubj";  // "ubj" or "json"
};

class XgbCostModel final : public CostModel {
 public:
  explicit XgbCostModel(XgbOptions options = {});
  ~XgbCostModel() override;
  XgbCostModel(const XgbCostModel&) = delete;
  XgbCostModel& operator=(const XgbCostModel&) = delete;

  // All rows as one group.
  absl::Status Fit(const std::vector<std::vector<float>>& features,
                   const std::vector<double>& throughput) override;
  // Rows in consecutive groups of `group_sizes` (summing to the row count): pairs are ranked only
  // within a group, and each group's targets are divided by its best throughput, so groups
  // measured at different scales (other shapes, other devices) train one model.
  absl::Status FitGroups(const std::vector<std::vector<float>>& features,
                         const std::vector<double>& throughput,
                         const std::vector<unsigned>& group_sizes);
  absl::StatusOr<std::vector<double>> Predict(
      const std::vector<std::vector<float>>& features) const override;
  bool trained() const override { return booster_ != nullptr; }

  absl::StatusOr<std::string> Save() const override;
  absl::Status Load(const std::string& bytes) override;

  const XgbOptions& options() const { return options_; }

 private:
  struct BoosterDeleter {
    void operator()(void* handle) const;
  };
  using BoosterPtr = std::unique_ptr<void, BoosterDeleter>;

  absl::Status SetParams(void* booster) const;

  XgbOptions options_;
  BoosterPtr booster_;
  int num_features_ = 0;
  // XGBoost boosters are not safe to call from two threads at once.
  mutable std::mutex mu_;
};

}  // namespace tunefarm::tuner
