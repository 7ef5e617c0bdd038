#include "runtime/measure/module_timing.h"

#include <algorithm>
#include <memory>

#include "absl/strings/str_cat.h"
#include "runtime/core/thread_pool.h"
#include "runtime/measure/canary.h"
#include "runtime/measure/host_timing_lock.h"
#include "runtime/measure/stable_timing.h"
#include "runtime/measure/timed_module.h"
#include "runtime/time_evaluator.h"

namespace tunefarm::runtime::measure {

absl::StatusOr<ModuleTimingReport> TimeModules(const ModuleTimingRequest& request) {
  std::vector<std::unique_ptr<TimedModule>> modules;
  for (const auto& [path, function] :
       {std::pair{request.library, request.function},
        std::pair{request.compare_library, request.compare_function}}) {
    if (path.empty()) continue;
    absl::StatusOr<std::unique_ptr<TimedModule>> m =
        TimedModule::Load(path, function, request.bindings, request.seed);
    if (!m.ok()) return m.status();
    modules.push_back(*std::move(m));
  }
  if (modules.empty()) return absl::InvalidArgumentError("no library to time");
  if (modules.size() == 2 && modules[0]->Interface() != modules[1]->Interface()) {
    return absl::InvalidArgumentError(
        absl::StrCat("the two files do not take the same arguments: ", modules[0]->Interface(),
                     " against ", modules[1]->Interface()));
  }
  std::string error;
  if (!SetNumThreads(request.threads, &error)) return absl::InvalidArgumentError(error);
  // A first run outside the clock: a module that fails says so before the lock is taken.
  for (auto& m : modules) {
    if (absl::Status s = m->Run(); !s.ok()) return s;
  }

  ModuleTimingReport report;
  absl::StatusOr<HostTimingLock> turn = HostTimingLock::Acquire(
      HostTimingLock::Mode::kTiming, request.max_lock_wait_s, request.timing_lock_path);
  if (!turn.ok()) {
    report.timing_note = absl::StrCat(turn.status().message(), "; timed without it");
  } else {
    report.timed_alone = turn->held() || turn->off();
    if (!turn->held()) report.timing_note = turn->reason();
  }
  std::vector<std::function<absl::Status()>> calls;
  for (auto& m : modules) calls.push_back([&m] { return m->Run(); });
  Canary canary;
  InterleavedOptions interleaved = request.interleaved;
  if (interleaved.canary == nullptr) interleaved.canary = &canary;
  absl::StatusOr<InterleavedTiming> timing = TimeInterleaved(calls, interleaved);
  if (!timing.ok()) return timing.status();

  for (size_t i = 0; i < modules.size(); ++i) {
    const std::vector<double>& s = timing->seconds[i];
    TimedModuleSummary summary;
    summary.description = modules[i]->Describe();
    summary.median_seconds = Summarize(s).median;
    summary.min_seconds = *std::min_element(s.begin(), s.end());
    summary.spread = Spread(s);
    report.modules.push_back(std::move(summary));
  }
  if (modules.size() == 2) report.compare_over_library = timing->over_first[1];
  report.rounds_redone = timing->rounds_redone;
  report.slow_rounds_kept = timing->slow_rounds_kept;
  report.round_seconds = std::move(timing->seconds);
  return report;
}

}  // namespace tunefarm::runtime::measure
