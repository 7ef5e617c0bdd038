#include "tools/commands/run_command.h"

#include <optional>
#include <string>
#include <utility>

#include "compiler/target/target.h"
#include "driver/bindings.h"
#include "driver/script_check.h"
#include "tools/commands/exit_codes.h"

namespace tunefarm::tools {

int RunRunCommand(const RunOptions& options, std::ostream& out, std::ostream& err) {
  absl::StatusOr<driver::Bindings> bindings = driver::ParseBindings(options.bind);
  if (!bindings.ok()) {
    err << "tunefarm: " << bindings.status().message() << "\n";
    return kExitUsage;
  }
  if (options.threads < 0) {
    err << "tunefarm: --threads must be 0 (all cores) or positive, got " << options.threads << "\n";
    return kExitUsage;
  }
  // The target, parsed once: nullopt is the reference interpreter.
  std::optional<target::Target> target;
  if (options.target != "interp") {
    absl::StatusOr<target::Target> parsed = target::ParseTarget(options.target);
    if (!parsed.ok()) {
      err << "tunefarm: " << parsed.status().message() << " (run also accepts: interp)\n";
      return kExitUsage;
    }
    target = *std::move(parsed);
  }
  if (!options.db.empty() && !target.has_value()) {
    err << "tunefarm: --db looks up a tuned schedule for a compiled target; add --target llvm\n";
    return kExitUsage;
  }

  driver::ScriptCheckOptions check_options;
  check_options.file = options.file;
  check_options.bindings = *std::move(bindings);
  check_options.target = std::move(target);
  check_options.seed = options.seed;
  check_options.rtol = options.rtol;
  check_options.atol = options.atol;
  check_options.time = options.time;
  check_options.threads = options.threads;
  check_options.db = options.db;
  check_options.device_key = options.device_key;
  check_options.on_schedule = [&out](const std::string& line) { out << line << "\n"; };
  absl::StatusOr<driver::ScriptCheck> check = driver::CheckScript(check_options);
  if (!check.ok()) {
    err << "tunefarm: " << check.status().message() << "\n";
    return 1;
  }

  if (check->compiled_reference.has_value()) {
    out << "reference=" << *check->compiled_reference
        << " (unscheduled definition; too large for the interpreter)\n";
  }
  out << "max_abs_err=" << check->max_abs_err << "\n";
  if (check->mismatch.has_value()) {
    out << "mismatch: " << check->mismatch->Describe() << "\n";
    return 1;
  }
  out << "ok\n";
  if (check->timing.has_value()) {
    const driver::ScriptTiming& timing = *check->timing;
    out << "target=" << timing.runner;
    if (timing.threads > 0) out << " threads=" << timing.threads;
    out << " repeats=" << timing.repeats << "\n";
    out << "median_ms=" << timing.median_seconds * 1e3 << " gflops=" << timing.gflops << "\n";
  }
  return 0;
}

}  // namespace tunefarm::tools
