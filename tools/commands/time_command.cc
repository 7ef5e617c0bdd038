#include "tools/commands/time_command.h"

#include "absl/strings/str_format.h"
#include "driver/bindings.h"
#include "runtime/measure/module_timing.h"
#include "tools/commands/exit_codes.h"

namespace tunefarm::tools {

int RunTimeCommand(const TimeCommandOptions& options, std::ostream& out, std::ostream& err) {
  absl::StatusOr<driver::Bindings> bindings = driver::ParseBindings(options.bind);
  if (!bindings.ok()) {
    err << "tunefarm: --bind: " << bindings.status().message() << "\n";
    return kExitUsage;
  }
  runtime::measure::ModuleTimingRequest request;
  request.library = options.library;
  request.function = options.function;
  request.compare_library = options.compare;
  request.compare_function =
      options.compare_function.empty() ? options.function : options.compare_function;
  request.bindings = *bindings;
  request.seed = options.seed;
  request.threads = options.threads;
  request.interleaved.rounds = options.rounds;
  request.interleaved.min_slot_ms = options.min_slot_ms;
  absl::StatusOr<runtime::measure::ModuleTimingReport> report =
      runtime::measure::TimeModules(request);
  if (!report.ok()) {
    err << "tunefarm: " << report.status().message() << "\n";
    return kExitUsage;
  }
  if (!report->timing_note.empty()) err << "tunefarm: note: " << report->timing_note << "\n";
  for (const runtime::measure::TimedModuleSummary& m : report->modules) {
    out << absl::StrFormat("%s: median %.4f ms, min %.4f ms, spread %.1f %% over %d rounds\n",
                           m.description, m.median_seconds * 1e3, m.min_seconds * 1e3,
                           100 * m.spread, options.rounds);
  }
  if (report->rounds_redone > 0) {
    out << report->rounds_redone << " rounds timed again after the canary saw a slow phase"
        << (report->slow_rounds_kept > 0
                ? absl::StrFormat(" (%d slow rounds kept: the machine stayed slow)",
                                  report->slow_rounds_kept)
                : std::string())
        << "\n";
  }
  if (report->compare_over_library) {
    out << "speedup of " << options.compare << " over " << options.library << ": "
        << runtime::measure::DescribeSpeedup(*report->compare_over_library) << "\n";
  }
  return 0;
}

}  // namespace tunefarm::tools
