#include "runtime/measure/interleaved_timing.h"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "runtime/measure_limits.h"
#include "runtime/time_evaluator.h"

namespace tunefarm::runtime::measure {
namespace {

// Calls in one slot: doubled until a batch lasts a tenth of the slot, then scaled to it.
absl::StatusOr<int> CallsPerSlot(const std::function<absl::Status()>& call,
                                 const std::function<double()>& now, double slot_ms) {
  for (int n = 1;; n *= 2) {
    const double start = now();
    for (int i = 0; i < n; ++i) {
      if (absl::Status s = call(); !s.ok()) return s;
    }
    const double ms = (now() - start) * 1000;
    if (ms >= slot_ms || n >= kMaxCallsPerRepeat / 2) return n;
    if (ms >= slot_ms / 10) {
      const double wanted = std::ceil(n * slot_ms / std::max(ms, 1e-6));
      return static_cast<int>(std::clamp(wanted, 1.0, static_cast<double>(kMaxCallsPerRepeat)));
    }
  }
}

}  // namespace

double StudentT975(int dof) {
  static constexpr double kTable[] = {
      12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,  // 1..10
      2.201,  2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,  // 11..20
      2.080,  2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,  // 21..30
  };
  if (dof < 1) return kTable[0];
  if (dof <= 30) return kTable[dof - 1];
  // Beyond the table, the Cornish-Fisher expansion around the normal quantile (within 0.05 %).
  const double z = 1.959964, v = dof;
  return z + (z * z * z + z) / (4 * v) +
         (5 * std::pow(z, 5) + 16 * z * z * z + 3 * z) / (96 * v * v);
}

absl::StatusOr<RatioInterval> PairedRatio(absl::Span<const double> baseline,
                                          absl::Span<const double> candidate) {
  if (baseline.size() != candidate.size() || baseline.size() < 2) {
    return absl::InvalidArgumentError(
        absl::StrCat("a paired ratio needs two or more rounds of "
                     "each, got ",
                     baseline.size(), " and ", candidate.size()));
  }
  const size_t n = baseline.size();
  std::vector<double> logs;
  for (size_t i = 0; i < n; ++i) {
    if (!(baseline[i] > 0) || !(candidate[i] > 0) || !std::isfinite(baseline[i]) ||
        !std::isfinite(candidate[i])) {
      return absl::InvalidArgumentError(absl::StrCat("round ", i,
                                                     " has a time that is not "
                                                     "positive and finite"));
    }
    logs.push_back(std::log(candidate[i] / baseline[i]));
  }
  double mean = 0;
  for (double v : logs) mean += v;
  mean /= static_cast<double>(n);
  double ss = 0;
  for (double v : logs) ss += (v - mean) * (v - mean);
  const double sd = std::sqrt(ss / static_cast<double>(n - 1));
  const double half = StudentT975(static_cast<int>(n) - 1) * sd / std::sqrt(static_cast<double>(n));
  RatioInterval r;
  r.ratio = std::exp(mean);
  r.low = std::exp(mean - half);
  r.high = std::exp(mean + half);
  r.rounds = static_cast<int>(n);
  return r;
}

absl::StatusOr<InterleavedTiming> TimeInterleaved(
    const std::vector<std::function<absl::Status()>>& calls, const InterleavedOptions& options) {
  if (calls.empty()) return absl::InvalidArgumentError("nothing to time");
  if (options.rounds < 2 || options.rounds > kMaxRepeat) {
    return absl::InvalidArgumentError(
        absl::StrCat("rounds must be in [2, ", kMaxRepeat, "], got ", options.rounds));
  }
  if (!(options.min_slot_ms > 0 && options.min_slot_ms <= 60000) ||
      !(options.warmup_ms >= 0 && options.warmup_ms <= 60000)) {
    return absl::InvalidArgumentError(
        "min_slot_ms must be in (0, 60000] and warmup_ms in "
        "[0, 60000]");
  }
  const std::function<double()> now =
      options.now_seconds ? options.now_seconds : runtime::SteadySeconds;
  InterleavedTiming out;
  out.seconds.resize(calls.size());
  for (const auto& call : calls) {
    const double end = now() + options.warmup_ms / 1000;
    do {
      if (absl::Status s = call(); !s.ok()) return s;
    } while (now() < end);
    absl::StatusOr<int> n = CallsPerSlot(call, now, options.min_slot_ms);
    if (!n.ok()) return n.status();
    out.calls_per_slot.push_back(*n);
  }
  Canary* canary = options.canary;
  std::vector<double> slots(calls.size());
  for (int round = 0; round < options.rounds;) {
    const double before = canary != nullptr ? canary->Time() : 0;
    for (size_t k = 0; k < calls.size(); ++k) {
      // Reversed every other round: whatever favours a slot's position favours each alike.
      const size_t i = round % 2 == 0 ? k : calls.size() - 1 - k;
      const int n = out.calls_per_slot[i];
      const double start = now();
      for (int c = 0; c < n; ++c) {
        if (absl::Status s = calls[i](); !s.ok()) return s;
      }
      slots[i] = (now() - start) / n;
    }
    if (canary != nullptr) {
      const double after = canary->Time();
      canary->Ratio(std::min(before, after));
      if (canary->Ratio(std::max(before, after)) > options.slow_phase_ratio) {
        if (out.rounds_redone < options.rounds) {
          ++out.rounds_redone;
          continue;  // the same round again, in the same slot order
        }
        ++out.slow_rounds_kept;
      }
    }
    for (size_t i = 0; i < calls.size(); ++i) out.seconds[i].push_back(slots[i]);
    ++round;
  }
  for (size_t i = 0; i < calls.size(); ++i) {
    absl::StatusOr<RatioInterval> r = PairedRatio(out.seconds[0], out.seconds[i]);
    if (!r.ok()) return r.status();
    out.over_first.push_back(*r);
  }
  return out;
}

std::string DescribeSpeedup(const RatioInterval& time) {
  // A speedup is old over new: the interval of the time ratio, inverted.
  const double speedup = 1 / time.ratio;
  const double low = 1 / time.high;
  const double high = 1 / time.low;
  auto interval = [&](double lo, double hi) {
    return absl::StrFormat("[%.3fx, %.3fx] (95 %% CI, %d rounds)", lo, hi, time.rounds);
  };
  if (!time.Measurable()) {
    return absl::StrFormat("no measurable gain: %.3fx %s", speedup, interval(low, high));
  }
  if (speedup >= 1) return absl::StrFormat("%.3fx faster %s", speedup, interval(low, high));
  return absl::StrFormat("%.3fx slower %s", time.ratio, interval(time.low, time.high));
}

}  // namespace tunefarm::runtime::measure
