// SearchHistory: what a strategy has proposed and learned so far — the config indices it must
// never propose again and the measured throughput of each — plus the seeded draw of fresh
// random configs every strategy falls back on.
#pragma once

#include <cstdint>
#include <random>
#include <unordered_set>
#include <vector>

#include "compiler/space/config.h"
#include "compiler/space/config_space.h"
#include "tuner/measure.h"

namespace tunefarm::tuner {

// 1 / median seconds of a successful result; 0 for a failure or a result without repeats.
// Within one task this ranks like flops / seconds, which is all the strategies need.
double ThroughputOf(const MeasureResult& result);

struct MeasuredConfig {
  std::vector<int64_t> knob_indices;
  int64_t index = 0;
  double throughput = 0;
};

class SearchHistory {
 public:
  explicit SearchHistory(const space::ConfigSpace& space) : space_(&space) {}

  const space::ConfigSpace& space() const { return *space_; }
  bool Seen(int64_t index) const { return seen_.count(index) > 0; }
  void MarkSeen(int64_t index) { seen_.insert(index); }
  size_t seen_count() const { return seen_.size(); }
  // Records results (marking their configs seen). InvalidArgument when the counts differ.
  absl::Status Add(const std::vector<space::Config>& configs,
                   const std::vector<MeasureResult>& results);
  const std::vector<MeasuredConfig>& measured() const { return measured_; }
  // Indices into measured(), best throughput first (ties: earlier first), at most `k`.
  std::vector<size_t> TopMeasured(size_t k) const;

 private:
  const space::ConfigSpace* space_;
  std::unordered_set<int64_t> seen_;
  std::vector<MeasuredConfig> measured_;
};

// Up to `n` valid configs not seen before, drawn uniformly (rejection first; near exhaustion the
// unseen valid indices are enumerated and shuffled, for spaces of at most `max_enumerate`
// points). Marks them seen. Fewer than `n` only when the space has no more.
absl::StatusOr<std::vector<space::Config>> DrawUnseen(SearchHistory& history, std::mt19937_64& rng,
                                                      int n, int64_t max_enumerate = 1 << 22);

// Knob positions where two configs differ.
int KnobDistance(const std::vector<int64_t>& a, const std::vector<int64_t>& b);

}  // namespace tunefarm::tuner
