#include "compiler/space/config_sampler.h"

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace tunefarm::space {

int64_t UniformIndex(std::mt19937_64& rng, int64_t bound) {
  const uint64_t n = static_cast<uint64_t>(bound);
  // Reject the top partial block of the 64-bit range so every residue is equally likely.
  const uint64_t limit = UINT64_MAX - (UINT64_MAX % n + 1) % n;
  uint64_t x = rng();
  while (x > limit) x = rng();
  return static_cast<int64_t>(x % n);
}

absl::StatusOr<Config> SampleValidConfig(const ConfigSpace& space, std::mt19937_64& rng,
                                         int max_attempts) {
  for (int attempt = 0; attempt < max_attempts; ++attempt) {
    absl::StatusOr<Config> config = space.Get(UniformIndex(rng, space.size()));
    if (!config.ok()) return config.status();
    if (space.IsValid(*config)) return config;
  }
  return absl::NotFoundError(absl::StrCat("no valid config in ", max_attempts, " random draws"));
}

}  // namespace tunefarm::space
