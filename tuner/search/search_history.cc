#include "tuner/search/search_history.h"

#include <algorithm>
#include <numeric>

#include "absl/strings/str_cat.h"
#include "compiler/space/config_sampler.h"

namespace tunefarm::tuner {

double ThroughputOf(const MeasureResult& result) {
  if (result.error_kind != ErrorKind::kOk) return 0;
  std::optional<double> median = MedianSeconds(result.repeat_seconds);
  if (!median || !(*median > 0)) return 0;
  return 1.0 / *median;
}

absl::Status SearchHistory::Add(const std::vector<space::Config>& configs,
                                const std::vector<MeasureResult>& results) {
  if (configs.size() != results.size()) {
    return absl::InvalidArgumentError(
        absl::StrCat("search: ", configs.size(), " configs but ", results.size(), " results"));
  }
  for (size_t i = 0; i < configs.size(); ++i) {
    if (&configs[i].space() != space_) {
      return absl::InvalidArgumentError("search: a result's config is from another space");
    }
    MarkSeen(configs[i].index());
    measured_.push_back({configs[i].knob_indices(), configs[i].index(), ThroughputOf(results[i])});
  }
  return absl::OkStatus();
}

std::vector<size_t> SearchHistory::TopMeasured(size_t k) const {
  std::vector<size_t> order(measured_.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return measured_[a].throughput > measured_[b].throughput;
  });
  if (order.size() > k) order.resize(k);
  return order;
}

absl::StatusOr<std::vector<space::Config>> DrawUnseen(SearchHistory& history, std::mt19937_64& rng,
                                                      int n, int64_t max_enumerate) {
  const space::ConfigSpace& space = history.space();
  std::vector<space::Config> out;
  if (n <= 0) return out;
  // Rejection is cheap while most of the space is fresh; the budget bounds the near-full case.
  const int64_t budget = 64 * static_cast<int64_t>(n) + 256;
  for (int64_t draw = 0; draw < budget && static_cast<int>(out.size()) < n; ++draw) {
    int64_t index = space::UniformIndex(rng, space.size());
    if (history.Seen(index)) continue;
    absl::StatusOr<space::Config> c = space.Get(index);
    if (!c.ok()) return c.status();
    history.MarkSeen(index);  // invalid points too: they are never worth drawing again
    if (space.IsValid(*c)) out.push_back(*std::move(c));
  }
  if (static_cast<int>(out.size()) == n || space.size() > max_enumerate) return out;
  std::vector<int64_t> rest;
  for (int64_t index = 0; index < space.size(); ++index) {
    if (!history.Seen(index)) rest.push_back(index);
  }
  // Fisher-Yates with UniformIndex, so the order is the same with every standard library.
  for (size_t i = rest.size(); i > 1; --i) {
    std::swap(rest[i - 1], rest[space::UniformIndex(rng, static_cast<int64_t>(i))]);
  }
  for (int64_t index : rest) {
    if (static_cast<int>(out.size()) == n) break;
    absl::StatusOr<space::Config> c = space.Get(index);
    if (!c.ok()) return c.status();
    history.MarkSeen(index);
    if (space.IsValid(*c)) out.push_back(*std::move(c));
  }
  return out;
}

int KnobDistance(const std::vector<int64_t>& a, const std::vector<int64_t>& b) {
  int d = 0;
  for (size_t i = 0; i < a.size() && i < b.size(); ++i) d += a[i] != b[i];
  return d;
}

}  // namespace tunefarm::tuner
