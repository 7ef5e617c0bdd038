#include "runtime/measure/stable_timing.h"

#include <algorithm>
#include <chrono>
#include <optional>
#include <thread>
#include <utility>

namespace tunefarm::runtime::measure {

double Spread(absl::Span<const double> seconds) {
  if (seconds.size() < 2) return 0;
  const auto [lo, hi] = std::minmax_element(seconds.begin(), seconds.end());
  return *lo > 0 ? (*hi - *lo) / *lo : 0;
}

absl::StatusOr<StableTiming> TimeStably(
    const std::function<absl::StatusOr<std::vector<double>>()>& time_repeats, Canary& canary,
    const StableTimingPolicy& policy) {
  std::optional<StableTiming> kept;
  auto in_slow_phase = [&](const StableTiming& t) {
    return t.canary_ratio > policy.slow_phase_ratio;
  };
  auto better = [&](const StableTiming& a, const StableTiming& b) {
    if (in_slow_phase(a) != in_slow_phase(b)) return !in_slow_phase(a);
    if (in_slow_phase(a)) return a.canary_ratio < b.canary_ratio;
    return a.spread < b.spread;
  };
  const int attempts = std::max(1, policy.max_attempts);
  for (int attempt = 1; attempt <= attempts; ++attempt) {
    const double before = canary.Time();
    absl::StatusOr<std::vector<double>> repeats = time_repeats();
    if (!repeats.ok()) return repeats.status();
    const double after = canary.Time();
    StableTiming t;
    t.repeat_seconds = *std::move(repeats);
    t.spread = Spread(t.repeat_seconds);
    // The faster run updates the best before the slower one is compared with it.
    canary.Ratio(std::min(before, after));
    t.canary_ratio = canary.Ratio(std::max(before, after));
    if (!kept.has_value() || better(t, *kept)) kept = std::move(t);
    kept->attempts = attempt;
    if (!in_slow_phase(*kept) && kept->spread <= policy.max_spread) break;
    if (attempt < attempts && in_slow_phase(*kept) && policy.slow_phase_pause_ms > 0) {
      std::this_thread::sleep_for(
          std::chrono::duration<double, std::milli>(policy.slow_phase_pause_ms));
    }
  }
  kept->noisy = in_slow_phase(*kept) || kept->spread > policy.max_spread;
  return *std::move(kept);
}

}  // namespace tunefarm::runtime::measure
