// Seeded random draws of valid configs, so search strategies are reproducible run to run.
#ifndef TUNEFARM_COMPILER_SPACE_CONFIG_SAMPLER_H_
#define TUNEFARM_COMPILER_SPACE_CONFIG_SAMPLER_H_

#include <cstdint>
#include <random>

#include "absl/status/statusor.h"
#include "compiler/space/config.h"
#include "compiler/space/config_space.h"

namespace tunefarm::space {

// A uniform index in [0, bound) from `rng`, by rejection rather than std::uniform_int_distribution
// so the same seed gives the same draws with every standard library.
int64_t UniformIndex(std::mt19937_64& rng, int64_t bound);

// Draws uniformly among valid configs by rejection. NotFound after `max_attempts` invalid draws
// (a space whose constraints keep almost nothing needs enumeration instead).
absl::StatusOr<Config> SampleValidConfig(const ConfigSpace& space, std::mt19937_64& rng,
                                         int max_attempts = 1000);

}  // namespace tunefarm::space

#endif  // TUNEFARM_COMPILER_SPACE_CONFIG_SAMPLER_H_
