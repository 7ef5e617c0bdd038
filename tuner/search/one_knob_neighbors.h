// The one-knob neighbourhood of a config: every valid config that differs from it in exactly one
// knob. The model-based search ranks these around its best measured configs (local search), which
// finds the last few percent that a sparse model misses between its global picks.
#pragma once

#include <cstdint>
#include <random>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler/space/config.h"
#include "compiler/space/config_space.h"

namespace tunefarm::tuner {

// Valid neighbours of `config`, knob by knob. A knob with more than `max_per_knob` other values
// contributes that many, drawn without repeats from `rng` (a split of a large extent has hundreds
// of factorisations); the others contribute all of theirs.
absl::StatusOr<std::vector<space::Config>> OneKnobNeighbors(const space::ConfigSpace& space,
                                                            const space::Config& config,
                                                            int max_per_knob, std::mt19937_64& rng);

}  // namespace tunefarm::tuner
