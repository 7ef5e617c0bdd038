#include "tuner/record.h"

#include <algorithm>

#include "absl/strings/str_cat.h"

namespace tunefarm::tuner {

double SpreadOf(const std::vector<double>& repeat_seconds) {
  if (repeat_seconds.size() < 2) return 0;
  const auto [lo, hi] = std::minmax_element(repeat_seconds.begin(), repeat_seconds.end());
  return *lo > 0 ? (*hi - *lo) / *lo : 0;
}

std::optional<double> MedianSeconds(const std::vector<double>& repeat_seconds) {
  if (repeat_seconds.empty()) return std::nullopt;
  std::vector<double> sorted = repeat_seconds;
  std::sort(sorted.begin(), sorted.end());
  size_t mid = sorted.size() / 2;
  if (sorted.size() % 2 == 1) return sorted[mid];
  return (sorted[mid - 1] + sorted[mid]) / 2;
}

}  // namespace tunefarm::tuner
