// GeneticSearch: evolves configs from the best measured ones — fitness-proportional parents,
// uniform crossover per knob, per-knob mutation, the elite always among the parents — and never
// proposes a config twice. Random until results arrive.
#pragma once

#include <cstdint>
#include <optional>
#include <random>

#include "tuner/search/search_history.h"
#include "tuner/search_strategy.h"

namespace tunefarm::tuner {

struct GeneticOptions {
  uint64_t seed = 0;
  int population = 32;     // parents drawn from the best `population` measured configs
  int elite = 4;           // the best `elite` are parents of every generation (at least once)
  double mutation = 0.15;  // per-knob probability of a fresh random value
  int attempts_per_child = 64;
};

class GeneticSearch final : public SearchStrategy {
 public:
  // The space must outlive the strategy.
  GeneticSearch(const space::ConfigSpace& space, GeneticOptions options = {})
      : history_(space), options_(options), rng_(options.seed) {}

  absl::StatusOr<std::vector<space::Config>> NextBatch(int n) override;
  absl::Status Update(const std::vector<space::Config>& configs,
                      const std::vector<MeasureResult>& results) override {
    return history_.Add(configs, results);
  }

 private:
  // One child of two parents from `population` (indices into measured()), or nullopt when no
  // attempt gave a valid unseen config.
  std::optional<space::Config> Breed(const std::vector<size_t>& population,
                                     const std::vector<double>& weights, size_t child);

  SearchHistory history_;
  GeneticOptions options_;
  std::mt19937_64 rng_;
};

}  // namespace tunefarm::tuner
