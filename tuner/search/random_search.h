// RandomSearch: uniform draws of valid configs without repeats, seeded and reproducible.
#pragma once

#include <cstdint>
#include <random>

#include "tuner/search/search_history.h"
#include "tuner/search_strategy.h"

namespace tunefarm::tuner {

class RandomSearch final : public SearchStrategy {
 public:
  // The space must outlive the strategy.
  RandomSearch(const space::ConfigSpace& space, uint64_t seed) : history_(space), rng_(seed) {}

  absl::StatusOr<std::vector<space::Config>> NextBatch(int n) override {
    return DrawUnseen(history_, rng_, n);
  }
  absl::Status Update(const std::vector<space::Config>& configs,
                      const std::vector<MeasureResult>& results) override {
    return history_.Add(configs, results);
  }

 private:
  SearchHistory history_;
  std::mt19937_64 rng_;
};

}  // namespace tunefarm::tuner
