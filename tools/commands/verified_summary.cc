#include "tools/commands/verified_summary.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "runtime/measure/interleaved_timing.h"

namespace tunefarm::tools {

void PrintVerifiedBest(const tuner::VerifiedBest& v, const std::string& where,
                       const std::string& indent, std::ostream& out) {
  const tuner::VerifiedConfig& best = v.candidates[v.winner];
  const tuner::VerifiedConfig& def = v.default_config;
  out << indent
      << absl::StrFormat("verified %s (%d best configs and the default, %d alternating rounds)\n",
                         where, static_cast<int>(v.candidates.size()),
                         v.winner_over_default.rounds);
  out << indent
      << absl::StrFormat(
             "best    median_ms=%.4f re-timed (recorded %.4f)%s\n", best.retimed_seconds * 1e3,
             best.recorded_seconds * 1e3,
             v.winner == 0 ? std::string() : absl::StrCat(", the records' #", v.winner + 1));
  out << indent
      << absl::StrFormat(
             "default median_ms=%.4f re-timed (recorded %s)\n", def.retimed_seconds * 1e3,
             def.recorded_seconds > 0 ? absl::StrFormat("%.4f", def.recorded_seconds * 1e3)
                                      : std::string("never"));
  out << indent
      << "tuned against default: " << runtime::measure::DescribeSpeedup(v.winner_over_default)
      << (v.timed_alone || v.timing_note.empty() ? "" : " (" + v.timing_note + ")") << "\n";
  out << indent << "config=" << best.config_json << "\n";
}

}  // namespace tunefarm::tools
