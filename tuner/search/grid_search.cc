#include "tuner/search/grid_search.h"

namespace tunefarm::tuner {

absl::StatusOr<std::vector<space::Config>> GridSearch::NextBatch(int n) {
  const space::ConfigSpace& space = history_.space();
  std::vector<space::Config> out;
  while (static_cast<int>(out.size()) < n && next_ < space.size()) {
    const int64_t index = next_++;
    if (history_.Seen(index)) continue;
    absl::StatusOr<space::Config> c = space.Get(index);
    if (!c.ok()) return c.status();
    history_.MarkSeen(index);
    if (space.IsValid(*c)) out.push_back(*std::move(c));
  }
  return out;
}

}  // namespace tunefarm::tuner
