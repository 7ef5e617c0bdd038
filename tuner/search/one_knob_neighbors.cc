#include "tuner/search/one_knob_neighbors.h"

#include <algorithm>
#include <utility>

#include "compiler/space/config_sampler.h"

namespace tunefarm::tuner {

absl::StatusOr<std::vector<space::Config>> OneKnobNeighbors(const space::ConfigSpace& space,
                                                            const space::Config& config,
                                                            int max_per_knob,
                                                            std::mt19937_64& rng) {
  std::vector<space::Config> out;
  const std::vector<int64_t>& genes = config.knob_indices();
  for (int k = 0; k < space.num_knobs(); ++k) {
    const int64_t size = space.knob(k).size();
    if (size <= 1) continue;
    std::vector<int64_t> values;
    if (size - 1 <= max_per_knob) {
      for (int64_t v = 0; v < size; ++v) {
        if (v != genes[k]) values.push_back(v);
      }
    } else {
      // A partial Fisher-Yates draw over the other values, without materialising all of them
      // when a knob has millions (a reorder of many axes).
      std::vector<int64_t> drawn;
      while (static_cast<int>(drawn.size()) < max_per_knob) {
        int64_t v = space::UniformIndex(rng, size - 1);
        if (v >= genes[k]) ++v;
        if (std::find(drawn.begin(), drawn.end(), v) == drawn.end()) drawn.push_back(v);
      }
      values = std::move(drawn);
    }
    for (int64_t v : values) {
      std::vector<int64_t> changed = genes;
      changed[k] = v;
      absl::StatusOr<space::Config> c = space.FromKnobIndices(std::move(changed));
      if (!c.ok()) return c.status();
      if (space.IsValid(*c)) out.push_back(*std::move(c));
    }
  }
  return out;
}

}  // namespace tunefarm::tuner
