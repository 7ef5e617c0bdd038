// GridSearch: every valid config in index order (first-defined knob fastest), skipping invalid
// points and configs already reported.
#pragma once

#include <cstdint>

#include "tuner/search/search_history.h"
#include "tuner/search_strategy.h"

namespace tunefarm::tuner {

class GridSearch final : public SearchStrategy {
 public:
  // The space must outlive the strategy.
  explicit GridSearch(const space::ConfigSpace& space) : history_(space) {}

  absl::StatusOr<std::vector<space::Config>> NextBatch(int n) override;
  absl::Status Update(const std::vector<space::Config>& configs,
                      const std::vector<MeasureResult>& results) override {
    return history_.Add(configs, results);
  }

 private:
  SearchHistory history_;
  int64_t next_ = 0;
};

}  // namespace tunefarm::tuner
