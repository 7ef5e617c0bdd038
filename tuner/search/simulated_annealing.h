// Simulated annealing over a config space: parallel chains that step to a neighbor (one knob
// changed), accepted by the Metropolis rule under a linearly falling temperature, scored in one
// batch per step — how the model-based search finds what its cost model likes best.
#pragma once

#include <cstdint>
#include <functional>
#include <random>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler/space/config.h"
#include "compiler/space/config_space.h"

namespace tunefarm::tuner {

struct AnnealingOptions {
  int chains = 64;
  int steps = 120;
  // Temperature at step 0, in units of the spread (standard deviation) of the starting scores,
  // so the schedule means the same for any model's score scale; it falls linearly to 0.
  double start_temperature = 1.0;
  int early_stop = 30;  // stop after this many steps without a new top-`keep` candidate
  int keep = 64;        // candidates returned
};

struct AnnealingStats {
  int steps = 0;
  int64_t scored = 0;  // distinct configs scored
};

// Higher is better; one score per config, in order.
using BatchScorer =
    std::function<absl::StatusOr<std::vector<double>>(const std::vector<space::Config>&)>;

// The best `keep` distinct valid configs the chains visited for which `excluded(index)` is false,
// best first, with their scores. Chains start at `starts` (valid configs; at most `chains` used).
absl::StatusOr<std::vector<std::pair<space::Config, double>>> Anneal(
    const space::ConfigSpace& space, const std::vector<space::Config>& starts,
    const BatchScorer& score, const std::function<bool(int64_t)>& excluded, std::mt19937_64& rng,
    const AnnealingOptions& options, AnnealingStats* stats = nullptr);

}  // namespace tunefarm::tuner
